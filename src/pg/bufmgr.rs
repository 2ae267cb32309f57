//! Shared buffers: what `ReadBuffer`, `LockBuffer` and `ReleaseBuffer` cost for a page that is
//! already in shared buffers (the **hit path**), and, for a pool with storage attached
//! ([`BufMgr::with_storage`]), for one that is not (the **miss path**)
//! (src/backend/storage/buffer/bufmgr.c, freelist.c, buf_table.c, src/backend/storage/smgr/md.c,
//! src/backend/storage/page/bufpage.c, src/backend/utils/hash/dynahash.c, src/common/hashfn.c,
//! src/backend/storage/lmgr/lwlock.c, src/backend/utils/resowner/resowner.c).
//!
//! The read path is PostgreSQL 18's, each function a real call where 18's profile has one:
//! `ReadBuffer` -> `ReadBufferExtended` (another session's temp relation refused, then
//! `ReadBuffer_common` inline: persistence, mode flags, a `ReadBuffersOperation` on the stack)
//! -> `StartReadBuffer` (`StartReadBuffersImpl` and `PinBufferForBlock` inline:
//! `IOContextForStrategy`, then `BufferAlloc`'s lookup). That builds the 20-byte `BufferTag`,
//! hashes it (`tag_hash` = `hash_bytes`, Bob Jenkins' lookup3, reached through dynahash's
//! `hash` pointer), takes the mapping partition's LWLock shared (one of 128; `LWLockAcquire`
//! -> `LWLockAttemptLock`'s CAS on its state word), looks the tag up in the buffer mapping
//! table (dynahash: directory, segment, bucket chain, `memcmp` through the `match` pointer),
//! pins the buffer (`PinBuffer`: `GetPrivateRefCountEntry`'s linear search of the 8-entry
//! array, then a CAS loop on the descriptor's state word adding a refcount and a usage count up
//! to 5), releases the partition lock (atomic sub), remembers the pin in the resource owner and
//! bumps the hit counters: `shared_blks_hit`, the relation's `blocks_fetched`/`blocks_hit`, and
//! `pgstat_count_io_op(IOOP_HIT)` with 18's per-backend copy (`pgstat_count_backend_io_op`).
//! `LockBuffer(BT_READ)` takes the content LWLock shared; `ReleaseBuffer` forgets the pin in
//! the resource owner and drops the refcount with a CAS (`UnpinBufferNoOwner`, out of line).
//! `BufferGetBlockNumber` is a call too.
//!
//! On a miss (`BufferAlloc` after the lookup failed): `GetVictimBuffer` takes a buffer from the
//! free list while it lasts, then from `StrategyGetBuffer`'s clock sweep (`ClockSweepTick`'s
//! atomic fetch-add on `nextVictimBuffer`, each buffer's header locked by `LockBufHdr`, a call
//! ending in `finish_spin_delay`, usage counts decremented until an unpinned buffer with usage
//! count 0 turns up), pins it with its header locked (`PinBuffer_Locked`), checks the pin is
//! this backend's only one (`CheckBufferIsPinnedOnce`), counts the eviction of a valid page
//! (`pgstat_count_io_op(IOOP_EVICT)`), and `InvalidateVictimBuffer` removes the old tag from
//! the mapping table under the old partition's exclusive lock; the new tag goes in under the
//! new partition's exclusive lock (`BufTableInsert`: dynahash `HASH_ENTER` with its free list),
//! the header gets the tag and a usage count of 1. The read is 18's (`AsyncReadBuffers`, then
//! `WaitReadBuffers` finding it done): `ReadBuffer` asks for it synchronously, so the backend
//! runs the whole AIO handle's life itself (`aio`: acquire, `StartBufferIO`, callbacks,
//! `smgrstartreadv` -> `mdstartreadv` -> `FileStartReadV` -> stage -> `pread(2)` of 8 KiB
//! from the relation's file through the OS page cache into the buffer's block -> the shared
//! completion, where `PageIsVerified` checks the data checksum (on: 18's initdb default) and
//! the header and `TerminateBufferIO` sets `BM_VALID` -> the local completion -> reclaim, with
//! 18 `DEBUG` reports whose `errstart` returns false), after
//! `pgstat_prepare_report_checksum_failure` looked up the database's statistics entry; the
//! counters (`shared_blks_read`, `pgstat_count_io_op_time(IOOP_READ)`) follow.
//!
//! The model is single-threaded: every atomic is a real read-modify-write (its latency is what
//! PostgreSQL pays), never contended. Left out: dirty victims (a read-only scan never has one:
//! no `FlushBuffer`, no WAL), buffer access strategies (ring buffers: a plain index scan uses
//! none), the bgwriter latch, `track_io_timing`, read-ahead (`StartReadBuffers` of several
//! blocks; a B-tree reads one page at a time), relation
//! segments (one file a relation), local buffers, waiting on a contended LWLock or a
//! locked buffer header, the private refcount overflow hash and the resource owner's hash
//! (the model holds at most a few pins), buffer strategies, and asynchronous execution (read
//! streams' batches, I/O workers: a single `ReadBuffer` never uses them). `BufferGetPage` reads a per-buffer page
//! pointer (the pages stay where the B-tree built them) instead of computing
//! `BufferBlocks + (buffer - 1) * BLCKSZ`: one load more.

mod aio;

use super::itemptr::BlockNumber;
use super::page::{BLCKSZ, Page, maxalign};
use std::fmt;
use std::sync::atomic::{AtomicU32, Ordering};

/// `Buffer`: 1-based buffer number; 0 is `InvalidBuffer`.
pub type Buffer = i32;
/// `InvalidBuffer`.
pub const INVALID_BUFFER: Buffer = 0;
/// `shared_buffers` = 128 MB: 16,384 buffers of 8 KiB.
pub const DEFAULT_NBUFFERS: usize = 16_384;
/// `NUM_BUFFER_PARTITIONS`.
pub const NUM_BUFFER_PARTITIONS: usize = 128;
/// `BM_MAX_USAGE_COUNT`.
pub const BM_MAX_USAGE_COUNT: u32 = 5;
/// `MAIN_FORKNUM`.
pub const MAIN_FORKNUM: i32 = 0;

// Buffer state word (buf_internals.h): 18 bits refcount, 4 bits usage count, 10 flag bits.
const BUF_REFCOUNT_ONE: u32 = 1;
const BUF_REFCOUNT_MASK: u32 = (1 << 18) - 1;
const BUF_USAGECOUNT_SHIFT: u32 = 18;
const BUF_USAGECOUNT_MASK: u32 = 0xf << BUF_USAGECOUNT_SHIFT;
const BUF_USAGECOUNT_ONE: u32 = 1 << BUF_USAGECOUNT_SHIFT;
const BM_LOCKED: u32 = 1 << 22;
const BM_DIRTY: u32 = 1 << 23;
const BM_VALID: u32 = 1 << 24;
const BM_TAG_VALID: u32 = 1 << 25;
const BM_IO_IN_PROGRESS: u32 = 1 << 26;
const BM_IO_ERROR: u32 = 1 << 27;
const BM_PIN_COUNT_WAITER: u32 = 1 << 29;
const BM_PERMANENT: u32 = 1 << 31;
const BUF_FLAG_MASK: u32 = 0xffc0_0000;
/// `FREENEXT_END_OF_LIST` and `FREENEXT_NOT_IN_LIST`.
const FREENEXT_END_OF_LIST: i32 = -1;
const FREENEXT_NOT_IN_LIST: i32 = -2;
/// `PD_VALID_FLAG_BITS`.
const PD_VALID_FLAG_BITS: u16 = 0x0007;

// LWLock state word (lwlock.c).
const LW_VAL_EXCLUSIVE: u32 = 1 << 24;
const LW_VAL_SHARED: u32 = 1;
const LW_LOCK_MASK: u32 = (1 << 25) - 1;
const LW_FLAG_RELEASE_OK: u32 = 1 << 29;
const LW_FLAG_HAS_WAITERS: u32 = 1 << 30;
/// `MAX_SIMUL_LWLOCKS`.
const MAX_SIMUL_LWLOCKS: usize = 200;
/// `REFCOUNT_ARRAY_ENTRIES`.
pub const REFCOUNT_ARRAY_ENTRIES: usize = 8;
/// `RESOWNER_ARRAY_SIZE`.
const RESOWNER_ARRAY_SIZE: usize = 32;
/// dynahash's `DEF_SEGSIZE` (buckets per directory segment) and its shift.
const DEF_SEGSIZE: usize = 256;
const DEF_SEGSIZE_SHIFT: u32 = 8;

/// `BufferTag`: 20 bytes, hashed and compared as bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BufferTag {
    /// `spcOid`.
    pub spc_oid: u32,
    /// `dbOid`.
    pub db_oid: u32,
    /// `relNumber`.
    pub rel_number: u32,
    /// `forkNum`.
    pub fork_num: i32,
    /// `blockNum`.
    pub block_num: BlockNumber,
}

/// `RelFileLocator`: what `RelationGetSmgr(rel)->smgr_rlocator.locator` gives `ReadBuffer`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelFileLocator {
    /// `spcOid` (pg_default: 1663).
    pub spc_oid: u32,
    /// `dbOid`.
    pub db_oid: u32,
    /// `relNumber`.
    pub rel_number: u32,
}

impl RelFileLocator {
    /// `InitBufferTag` for the main fork.
    #[inline(always)]
    pub fn tag(&self, block: BlockNumber) -> BufferTag {
        BufferTag {
            spc_oid: self.spc_oid,
            db_oid: self.db_oid,
            rel_number: self.rel_number,
            fork_num: MAIN_FORKNUM,
            block_num: block,
        }
    }
}

/// `LWLock`: tranche, atomic state, waiter list; 16 bytes.
#[repr(C)]
pub struct LWLock {
    tranche: u16,
    state: AtomicU32,
    waiters: [u32; 2],
}

impl LWLock {
    fn new(tranche: u16) -> LWLock {
        LWLock { tranche, state: AtomicU32::new(LW_FLAG_RELEASE_OK), waiters: [u32::MAX; 2] }
    }
}

/// `LWLockPadded`: one lock per 128-byte `PG_CACHE_LINE_SIZE` slot (the mapping partition locks).
#[repr(C, align(128))]
struct LWLockPadded {
    lock: LWLock,
}

/// `LWLockMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LWLockMode {
    /// `LW_EXCLUSIVE`.
    Exclusive,
    /// `LW_SHARED`.
    Shared,
}

/// `BufferDesc` padded to 64 bytes (`BufferDescPadded`).
#[repr(C, align(64))]
pub struct BufferDesc {
    tag: BufferTag,
    buf_id: i32,
    state: AtomicU32,
    wait_backend_pgprocno: i32,
    free_next: i32,
    /// `io_wref`: the I/O in progress on the buffer, if any (18).
    io_wref: aio::PgAioWaitRef,
    content_lock: LWLock,
}

const _: () = {
    assert!(size_of::<BufferTag>() == 20);
    assert!(size_of::<LWLock>() == 16);
    assert!(size_of::<LWLockPadded>() == 128);
    assert!(size_of::<BufferDesc>() == 64);
};

/// A dynahash element: `HASHELEMENT` (link, hash value; MAXALIGN'd to 16) then the entry,
/// `BufferLookupEnt` (tag, buffer id).
#[repr(C)]
struct HashElement {
    link: *mut HashElement,
    hashvalue: u32,
    _pad: u32,
    key: BufferTag,
    id: i32,
}
const _: () = assert!(size_of::<HashElement>() == 40);

/// `HashValueFunc`.
type HashValueFunc = unsafe fn(*const u8, usize) -> u32;
/// `HashCompareFunc`: `memcmp` for a blob key.
type HashCompareFunc = unsafe extern "C" fn(*const libc::c_void, *const libc::c_void, usize) -> libc::c_int;

/// `SharedBufHash`: a partitioned dynahash table that never splits buckets (nbuckets =
/// next power of two of NBuffers + NUM_BUFFER_PARTITIONS).
struct BufTable {
    dir: Vec<Box<[*mut HashElement; DEF_SEGSIZE]>>,
    max_bucket: u32,
    high_mask: u32,
    low_mask: u32,
    keysize: usize,
    hash: HashValueFunc,
    match_fn: HashCompareFunc,
    /// Element storage: allocated once, never moved (chains point into it).
    elements: Vec<HashElement>,
    /// dynahash's `freeList`: unused elements, chained through `link`.
    free_list: *mut HashElement,
    /// The free list's spinlock (a partitioned table's `freeList[i].mutex`).
    free_lock: std::sync::atomic::AtomicBool,
}

/// `PrivateRefCountEntry` (`PGPrivateRefCountEntry` in csrc/hl_pg.h).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PrivateRefCountEntry {
    /// `buffer`.
    pub buffer: Buffer,
    /// `refcount`.
    pub refcount: i32,
}

/// `PrivateRefCountArray` and `PrivateRefCountOverflowed` (globals in bufmgr.c), what the C
/// `GetPrivateRefCountEntry` reads (`PGPrivateRefCount` in csrc/hl_pg.h).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct PrivateRefCount {
    /// `PrivateRefCountArray`.
    pub array: [PrivateRefCountEntry; REFCOUNT_ARRAY_ENTRIES],
    /// `PrivateRefCountOverflowed`.
    pub overflowed: i32,
}

/// `LWLockHandle`: a held lock.
#[derive(Clone, Copy)]
struct LWLockHandle {
    lock: *const LWLock,
    mode: LWLockMode,
}

/// `ResourceOwnerDesc`, cut to its name.
pub struct ResourceOwnerDesc {
    /// `name`.
    pub name: &'static str,
}

/// `buffer_pin_resowner_desc`.
static BUFFER_PIN_RESOWNER_DESC: ResourceOwnerDesc = ResourceOwnerDesc { name: "buffer pin" };

/// `ResourceElem`.
#[derive(Clone, Copy)]
struct ResourceElem {
    item: usize,
    kind: *const ResourceOwnerDesc,
}

/// `ResourceOwnerData`, its small array only.
struct ResourceOwner {
    releasing: bool,
    narr: u32,
    arr: [ResourceElem; RESOWNER_ARRAY_SIZE],
}

/// Why a buffer could not be mapped at setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BufMgrError {
    /// Every buffer already holds a page.
    NoFreeBuffer,
    /// The tag is already in the pool.
    AlreadyMapped(BufferTag),
    /// The pool reads its pages from storage.
    HasStorage,
}

impl fmt::Display for BufMgrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BufMgrError::NoFreeBuffer => write!(f, "no free buffer left in the pool"),
            BufMgrError::AlreadyMapped(t) => write!(f, "block {:?} is already in shared buffers", t),
            BufMgrError::HasStorage => write!(f, "the pool reads its pages from storage: nothing can be mapped into it"),
        }
    }
}

impl std::error::Error for BufMgrError {}

/// `BufferStrategyControl`: the clock hand, its wraparound count, the free list.
struct StrategyControl {
    /// `buffer_strategy_lock` (a spinlock).
    lock: std::sync::atomic::AtomicBool,
    /// `nextVictimBuffer`.
    next_victim_buffer: AtomicU32,
    /// `firstFreeBuffer`.
    first_free_buffer: i32,
    /// `completePasses`.
    complete_passes: u32,
    /// `numBufferAllocs`.
    num_buffer_allocs: AtomicU32,
    /// `bgwprocno` (-1: no bgwriter to wake).
    bgwprocno: i32,
}

/// `smgr`/`md.c` for the relations a pool reads: one open file a relation (its 8 KiB blocks
/// in order).
struct Storage {
    files: Vec<(RelFileLocator, std::fs::File)>,
}

/// `BufferBlocks`: `NBuffers` 8 KiB blocks, 4 KiB-aligned as `PG_IO_ALIGN_SIZE` makes them.
#[repr(C, align(4096))]
struct IoBlock([u8; BLCKSZ]);

/// Shared buffers (descriptors, the mapping table and its partition locks, with storage the
/// buffer blocks and the clock sweep's state) and one backend's private state (private
/// refcounts, held LWLocks, resource owner, counters).
pub struct BufMgr {
    descriptors: Box<[BufferDesc]>,
    pages: Box<[*const Page]>,
    table: BufTable,
    partition_locks: Box<[LWLockPadded]>,
    nmapped: usize,
    strategy: StrategyControl,
    storage: Option<Storage>,
    blocks: Box<[IoBlock]>,
    /// `BufferIOCVArray`: each buffer's I/O condition variable, its spinlock only (no waiters).
    io_cvs: Box<[std::sync::atomic::AtomicBool]>,
    // Backend-local.
    refs: PrivateRefCount,
    reserved: Option<u8>,
    held_lwlocks: [LWLockHandle; MAX_SIMUL_LWLOCKS],
    num_held_lwlocks: usize,
    interrupt_holdoff_count: u32,
    owner: ResourceOwner,
    /// `pgBufferUsage.shared_blks_hit`.
    pub shared_blks_hit: u64,
    /// `PendingIOStats`: the backend's I/O counts by object, context and operation.
    pending_io: PgStatPendingIO,
    /// `PendingBackendStats.pending_io`: 18's per-backend copy of the same counts.
    backend_io: PgStatPendingIO,
    /// `have_iostats`, `backend_has_iostats`, `pgstat_report_fixed`.
    have_iostats: bool,
    backend_has_iostats: bool,
    pgstat_report_fixed: bool,
    /// `MyBackendType`.
    backend_type: BackendType,
    /// `VacuumCostActive`, `VacuumCostBalance`, `VacuumCostPageHit`.
    vacuum_cost_active: bool,
    vacuum_cost_balance: i32,
    /// `rel->pgstat_info->counts.blocks_fetched`.
    pub blocks_fetched: u64,
    /// `rel->pgstat_info->counts.blocks_hit`.
    pub blocks_hit: u64,
    /// `pgBufferUsage.shared_blks_read`.
    pub shared_blks_read: u64,
    /// `DataChecksumsEnabled()`: on, as 18's initdb sets up a cluster; a page read from the
    /// relation's file is then checksummed before its header is checked.
    pub data_checksums: bool,
    /// 18's asynchronous I/O: this backend's handles.
    aio: aio::PgAio,
    /// The backend's cache of statistics entry references.
    pgstat: crate::pg::pgstat::PgStatLocal,
}

impl BufMgr {
    /// A pool of `nbuffers` buffers that reads what it misses from `files` (one per relation,
    /// its blocks in order) into its own 8 KiB blocks: every buffer starts on the free list, as
    /// after server start.
    pub fn with_storage(nbuffers: usize, files: Vec<(RelFileLocator, std::fs::File)>) -> Box<BufMgr> {
        let mut bm = BufMgr::new(nbuffers);
        let n = bm.descriptors.len();
        // SAFETY: IoBlock is plain bytes; zeroed memory is a valid value.
        bm.blocks = (0..n).map(|_| unsafe { std::mem::zeroed::<IoBlock>() }).collect();
        for i in 0..n {
            bm.pages[i] = (&raw const bm.blocks[i]).cast::<Page>();
        }
        bm.storage = Some(Storage { files });
        bm.io_cvs = (0..n).map(|_| std::sync::atomic::AtomicBool::new(false)).collect();
        // dynahash allocates every element at init onto the free list (a shared table never grows).
        let t = &mut bm.table;
        for _ in 0..t.elements.capacity() {
            t.elements.push(HashElement { link: std::ptr::null_mut(), hashvalue: 0, _pad: 0, key: BufferTag::default(), id: -1 });
        }
        for e in t.elements.iter_mut() {
            e.link = t.free_list;
            t.free_list = e;
        }
        bm
    }

    /// Read `blocks` of `rel` through the pool and unpin them, then zero the read and hit
    /// counters: the pool as an earlier query left it (every buffer valid, so each miss
    /// evicts a page, as on a server whose shared buffers are full), the counts the next
    /// query's own.
    pub fn prewarm(&mut self, rel: &RelFileLocator, blocks: impl IntoIterator<Item = BlockNumber>) {
        let bm: *mut BufMgr = self;
        for b in blocks {
            // SAFETY: this pool, borrowed by nothing else meanwhile.
            unsafe {
                let x = read_buffer(bm, rel, b);
                release_buffer(bm, x);
            }
        }
        self.shared_blks_hit = 0;
        self.shared_blks_read = 0;
        self.blocks_fetched = 0;
        self.blocks_hit = 0;
        self.pending_io = PgStatPendingIO::default();
        self.backend_io = PgStatPendingIO::default();
    }

    /// An empty pool of `nbuffers` buffers (`InitBufferManagerAccess` + `InitBufTable`).
    pub fn new(nbuffers: usize) -> Box<BufMgr> {
        let nbuffers = nbuffers.max(1);
        let nbuckets = (nbuffers + NUM_BUFFER_PARTITIONS).next_power_of_two();
        let nsegs = (nbuckets - 1) / DEF_SEGSIZE + 1;
        let table = BufTable {
            dir: (0..nsegs).map(|_| Box::new([std::ptr::null_mut(); DEF_SEGSIZE])).collect(),
            max_bucket: nbuckets as u32 - 1,
            high_mask: (nbuckets as u32) * 2 - 1,
            low_mask: nbuckets as u32 - 1,
            keysize: size_of::<BufferTag>(),
            hash: tag_hash,
            match_fn: libc::memcmp,
            elements: Vec::with_capacity(nbuffers + NUM_BUFFER_PARTITIONS),
            free_list: std::ptr::null_mut(),
            free_lock: std::sync::atomic::AtomicBool::new(false),
        };
        let descriptors = (0..nbuffers)
            .map(|i| BufferDesc {
                tag: BufferTag::default(),
                buf_id: i as i32,
                state: AtomicU32::new(0),
                wait_backend_pgprocno: -1,
                free_next: if i + 1 < nbuffers { i as i32 + 1 } else { FREENEXT_END_OF_LIST },
                io_wref: aio::PgAioWaitRef::default(),
                content_lock: LWLock::new(0),
            })
            .collect();
        let dummy = LWLockHandle { lock: std::ptr::null(), mode: LWLockMode::Shared };
        let none = ResourceElem { item: 0, kind: std::ptr::null() };
        Box::new(BufMgr {
            descriptors,
            pages: vec![std::ptr::null(); nbuffers].into_boxed_slice(),
            table,
            partition_locks: (0..NUM_BUFFER_PARTITIONS).map(|_| LWLockPadded { lock: LWLock::new(1) }).collect(),
            nmapped: 0,
            strategy: StrategyControl {
                lock: std::sync::atomic::AtomicBool::new(false),
                next_victim_buffer: AtomicU32::new(0),
                first_free_buffer: 0,
                complete_passes: 0,
                num_buffer_allocs: AtomicU32::new(0),
                bgwprocno: -1,
            },
            storage: None,
            blocks: Box::new([]),
            io_cvs: Box::new([]),
            refs: PrivateRefCount::default(),
            reserved: None,
            held_lwlocks: [dummy; MAX_SIMUL_LWLOCKS],
            num_held_lwlocks: 0,
            interrupt_holdoff_count: 0,
            owner: ResourceOwner { releasing: false, narr: 0, arr: [none; RESOWNER_ARRAY_SIZE] },
            shared_blks_hit: 0,
            pending_io: PgStatPendingIO::default(),
            backend_io: PgStatPendingIO::default(),
            have_iostats: false,
            backend_has_iostats: false,
            pgstat_report_fixed: false,
            backend_type: BackendType::Backend,
            vacuum_cost_active: false,
            vacuum_cost_balance: 0,
            blocks_fetched: 0,
            blocks_hit: 0,
            shared_blks_read: 0,
            data_checksums: true,
            aio: aio::PgAio::new(),
            pgstat: crate::pg::pgstat::PgStatLocal::default(),
        })
    }

    /// Put `tag` in the next free buffer, valid and unpinned with usage count 1, as a read
    /// that missed would leave it. `page` is what `BufferGetPage` returns (null for a page no
    /// scan reads: it only occupies the mapping table).
    pub fn map(&mut self, tag: BufferTag, page: *const Page) -> Result<Buffer, BufMgrError> {
        let id = self.nmapped;
        if id == self.descriptors.len() {
            return Err(BufMgrError::NoFreeBuffer);
        }
        let hash = unsafe { tag_hash((&raw const tag).cast(), size_of::<BufferTag>()) };
        if self.table.find(&tag, hash).is_some() {
            return Err(BufMgrError::AlreadyMapped(tag));
        }
        if self.storage.is_some() {
            // A pool with storage reads its pages; a mapped page would not be the file's.
            return Err(BufMgrError::HasStorage);
        }
        let d = &mut self.descriptors[id];
        d.tag = tag;
        d.state.store(BM_TAG_VALID | BM_VALID | BM_PERMANENT | BUF_USAGECOUNT_ONE, Ordering::Relaxed);
        d.free_next = FREENEXT_NOT_IN_LIST;
        self.pages[id] = page;
        self.table.insert(tag, hash, id as i32);
        self.nmapped += 1;
        // The free list is the buffers not mapped yet, in order.
        self.strategy.first_free_buffer = if self.nmapped < self.descriptors.len() { self.nmapped as i32 } else { FREENEXT_END_OF_LIST };
        Ok(id as Buffer + 1)
    }

    /// Buffers in the pool.
    pub fn nbuffers(&self) -> usize {
        self.descriptors.len()
    }

    /// Buffers holding a page.
    pub fn nmapped(&self) -> usize {
        self.nmapped
    }

    /// Pins this backend holds (private refcounts), resource owner entries, LWLocks held, and
    /// the sum of the shared refcounts: all zero between scans.
    pub fn held(&self) -> (i64, u32, usize, u64) {
        let private = self.refs.array.iter().filter(|e| e.buffer != INVALID_BUFFER).map(|e| e.refcount as i64).sum();
        let shared = self.descriptors.iter().map(|d| (d.state.load(Ordering::Relaxed) & BUF_REFCOUNT_MASK) as u64).sum();
        (private, self.owner.narr, self.num_held_lwlocks, shared)
    }

    /// Whether every AIO handle is idle, none in flight or owned: true between reads.
    pub fn io_handles_idle(&self) -> bool {
        self.aio.quiescent()
    }

    /// Reads completed through an AIO handle since the pool was made (prewarming included).
    pub fn ios_reclaimed(&self) -> u64 {
        self.aio.reclaimed()
    }

    /// `completePasses` of the clock sweep and the hand's position (`nextVictimBuffer`).
    pub fn clock(&self) -> (u32, u32) {
        (self.strategy.complete_passes, self.strategy.next_victim_buffer.load(Ordering::Relaxed))
    }

    /// The buffer holding `tag`, if any (a lookup outside any scan, for tests).
    pub fn lookup(&self, tag: &BufferTag) -> Option<Buffer> {
        let hash = unsafe { tag_hash((tag as *const BufferTag).cast(), size_of::<BufferTag>()) };
        self.table.find(tag, hash).map(|id| id + 1)
    }

    /// `pgstat_count_io_op(IOOBJECT_RELATION, IOCONTEXT_NORMAL, IOOP_HIT)` so far.
    pub fn io_hits(&self) -> u64 {
        self.pending_io.counts[IOOBJECT_RELATION][IOCONTEXT_NORMAL][IOOP_HIT] as u64
    }

    /// `pgstat_count_io_op(IOOBJECT_RELATION, IOCONTEXT_NORMAL, IOOP_READ)` so far.
    pub fn io_reads(&self) -> u64 {
        self.pending_io.counts[IOOBJECT_RELATION][IOCONTEXT_NORMAL][IOOP_READ] as u64
    }

    /// Usage count of `buffer` (the clock sweep's input).
    pub fn usage_count(&self, buffer: Buffer) -> u32 {
        (self.descriptors[buffer as usize - 1].state.load(Ordering::Relaxed) & BUF_USAGECOUNT_MASK) >> BUF_USAGECOUNT_SHIFT
    }
}

impl BufTable {
    /// `calc_bucket`, then the segment slot.
    #[inline(always)]
    fn bucket_slot(&self, hashvalue: u32) -> *const *mut HashElement {
        let mut bucket = hashvalue & self.high_mask;
        if bucket > self.max_bucket {
            bucket &= self.low_mask;
        }
        let seg = &self.dir[(bucket >> DEF_SEGSIZE_SHIFT) as usize];
        &seg[bucket as usize & (DEF_SEGSIZE - 1)]
    }

    fn find(&self, tag: &BufferTag, hash: u32) -> Option<i32> {
        // SAFETY: a valid tag.
        let e = unsafe { hash_search_find(self, (tag as *const BufferTag).cast(), hash) };
        (!e.is_null()).then(|| unsafe { (*e).id })
    }

    /// `HASH_ENTER` at setup: push onto the bucket's chain.
    fn insert(&mut self, key: BufferTag, hashvalue: u32, id: i32) {
        assert!(self.elements.len() < self.elements.capacity(), "element storage must never move");
        let slot = self.bucket_slot(hashvalue) as *mut *mut HashElement;
        // SAFETY: slot points into a directory segment; capacity checked, so no reallocation.
        unsafe {
            self.elements.push(HashElement { link: *slot, hashvalue, _pad: 0, key, id });
            *slot = self.elements.last_mut().unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// hashfn.c: hash_bytes (lookup3) and tag_hash.

#[inline(always)]
fn mix(a: &mut u32, b: &mut u32, c: &mut u32) {
    *a = a.wrapping_sub(*c); *a ^= c.rotate_left(4); *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a); *b ^= a.rotate_left(6); *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b); *c ^= b.rotate_left(8); *b = b.wrapping_add(*a);
    *a = a.wrapping_sub(*c); *a ^= c.rotate_left(16); *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a); *b ^= a.rotate_left(19); *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b); *c ^= b.rotate_left(4); *b = b.wrapping_add(*a);
}

#[inline(always)]
fn final_mix(a: &mut u32, b: &mut u32, c: &mut u32) {
    *c ^= *b; *c = c.wrapping_sub(b.rotate_left(14));
    *a ^= *c; *a = a.wrapping_sub(c.rotate_left(11));
    *b ^= *a; *b = b.wrapping_sub(a.rotate_left(25));
    *c ^= *b; *c = c.wrapping_sub(b.rotate_left(16));
    *a ^= *c; *a = a.wrapping_sub(c.rotate_left(4));
    *b ^= *a; *b = b.wrapping_sub(a.rotate_left(14));
    *c ^= *b; *c = c.wrapping_sub(b.rotate_left(24));
}

/// `hash_bytes`: Bob Jenkins' lookup3 `hashlittle` with PostgreSQL's seed
/// (`0x9e3779b9 + len + 3923095`) and tail handling (the lowest byte of `c` is left for the
/// length). The key is read 4 bytes at a time, as PostgreSQL does for 4-byte-aligned keys.
///
/// # Safety
/// `k` must point to `len` readable bytes.
pub unsafe fn hash_bytes(k: *const u8, len: usize) -> u32 {
    let word = |at: usize| unsafe { (k.add(at) as *const u32).read_unaligned() };
    let byte = |at: usize| unsafe { *k.add(at) as u32 };
    let init = 0x9e37_79b9u32.wrapping_add(len as u32).wrapping_add(3_923_095);
    let (mut a, mut b, mut c) = (init, init, init);
    let mut at = 0;
    let mut left = len;
    while left >= 12 {
        a = a.wrapping_add(word(at));
        b = b.wrapping_add(word(at + 4));
        c = c.wrapping_add(word(at + 8));
        mix(&mut a, &mut b, &mut c);
        at += 12;
        left -= 12;
    }
    // The tail as lookup3's switch takes it for an aligned key on a little-endian machine:
    // whole words with one load, the bytes after them one at a time (into c past its low
    // byte, which is left for the length); `final` runs even when nothing is left.
    if left >= 8 {
        b = b.wrapping_add(word(at + 4));
        a = a.wrapping_add(word(at));
        if left >= 9 {
            c = c.wrapping_add(byte(at + 8) << 8);
        }
        if left >= 10 {
            c = c.wrapping_add(byte(at + 9) << 16);
        }
        if left == 11 {
            c = c.wrapping_add(byte(at + 10) << 24);
        }
    } else if left >= 4 {
        a = a.wrapping_add(word(at));
        if left >= 5 {
            b = b.wrapping_add(byte(at + 4));
        }
        if left >= 6 {
            b = b.wrapping_add(byte(at + 5) << 8);
        }
        if left == 7 {
            b = b.wrapping_add(byte(at + 6) << 16);
        }
    } else {
        if left >= 1 {
            a = a.wrapping_add(byte(at));
        }
        if left >= 2 {
            a = a.wrapping_add(byte(at + 1) << 8);
        }
        if left == 3 {
            a = a.wrapping_add(byte(at + 2) << 16);
        }
    }
    final_mix(&mut a, &mut b, &mut c);
    c
}

/// `tag_hash`: dynahash's hash function for blob keys. Out of line: called through
/// `hashp->hash`.
///
/// # Safety
/// As [`hash_bytes`].
#[inline(never)]
pub unsafe fn tag_hash(key: *const u8, keysize: usize) -> u32 {
    unsafe { hash_bytes(key, keysize) }
}

// ---------------------------------------------------------------------------------------------
// dynahash.c and buf_table.c.

/// `get_hash_value`: `hashp->hash(keyPtr, hashp->keysize)`, an indirect call.
#[inline(never)]
unsafe fn get_hash_value(t: &BufTable, key: *const u8) -> u32 {
    unsafe { (t.hash)(key, t.keysize) }
}

/// `hash_search_with_hash_value(..., HASH_FIND, ...)`: the element holding `key`, or null.
#[inline(never)]
unsafe fn hash_search_find(t: &BufTable, key: *const u8, hashvalue: u32) -> *mut HashElement {
    unsafe {
        let mut cur = *t.bucket_slot(hashvalue);
        let match_fn = t.match_fn;
        while !cur.is_null() {
            if (*cur).hashvalue == hashvalue && match_fn((&raw const (*cur).key).cast(), key.cast(), t.keysize) == 0 {
                break;
            }
            cur = (*cur).link;
        }
        cur
    }
}

/// `BufTableHashCode`.
#[inline(never)]
unsafe fn buf_table_hash_code(t: &BufTable, tag: *const BufferTag) -> u32 {
    unsafe { get_hash_value(t, tag.cast()) }
}

/// `BufTableLookup`: the buffer id, or -1.
#[inline(never)]
unsafe fn buf_table_lookup(t: &BufTable, tag: *const BufferTag, hashcode: u32) -> i32 {
    unsafe {
        let e = hash_search_find(t, tag.cast(), hashcode);
        if e.is_null() { -1 } else { (*e).id }
    }
}

// ---------------------------------------------------------------------------------------------
// lwlock.c.

/// `LWLockAttemptLock`: one CAS on the state word, swapped in even when the lock is taken (it
/// doubles as a barrier); true if the caller must wait. Out of line, as 18's profile has it.
///
/// # Safety
/// `lock` must point to a live LWLock.
#[inline(never)]
unsafe fn lwlock_attempt_lock(lock: *const LWLock, mode: LWLockMode) -> bool {
    // SAFETY: the caller's lock.
    let state = unsafe { &(*lock).state };
    let mut old = state.load(Ordering::Relaxed);
    loop {
        let (free, desired) = match mode {
            LWLockMode::Exclusive => (old & LW_LOCK_MASK == 0, old + LW_VAL_EXCLUSIVE),
            LWLockMode::Shared => (old & LW_VAL_EXCLUSIVE == 0, old + LW_VAL_SHARED),
        };
        let desired = if free { desired } else { old };
        match state.compare_exchange(old, desired, Ordering::AcqRel, Ordering::Relaxed) {
            Ok(_) => return !free,
            Err(now) => old = now,
        }
    }
}

/// `LWLockAcquire` for an uncontended lock: room in the held-locks array, `HOLD_INTERRUPTS`,
/// [`lwlock_attempt_lock`], then the held-locks array. Returns true (PostgreSQL: "acquired
/// without waiting").
///
/// # Safety
/// `lock` must point to a live LWLock of `bm`.
#[inline(never)]
pub unsafe fn lwlock_acquire(bm: &mut BufMgr, lock: *const LWLock, mode: LWLockMode) -> bool {
    if bm.num_held_lwlocks >= MAX_SIMUL_LWLOCKS {
        too_many_lwlocks();
    }
    bm.interrupt_holdoff_count += 1; // HOLD_INTERRUPTS()
    // SAFETY: the caller's lock.
    if unsafe { lwlock_attempt_lock(lock, mode) } {
        would_wait();
    }
    bm.held_lwlocks[bm.num_held_lwlocks] = LWLockHandle { lock, mode };
    bm.num_held_lwlocks += 1;
    true
}

/// `LWLockRelease`: find the lock in the held array (searched backwards), close the gap,
/// subtract with an atomic `sub_fetch`.
///
/// # Safety
/// As [`lwlock_acquire`]; `lock` must be held.
#[inline(never)]
pub unsafe fn lwlock_release(bm: &mut BufMgr, lock: *const LWLock) {
    let mut i = bm.num_held_lwlocks;
    loop {
        if i == 0 {
            not_held();
        }
        i -= 1;
        if std::ptr::eq(bm.held_lwlocks[i].lock, lock) {
            break;
        }
    }
    let mode = bm.held_lwlocks[i].mode;
    bm.num_held_lwlocks -= 1;
    for j in i..bm.num_held_lwlocks {
        bm.held_lwlocks[j] = bm.held_lwlocks[j + 1];
    }
    let sub = if mode == LWLockMode::Exclusive { LW_VAL_EXCLUSIVE } else { LW_VAL_SHARED };
    // SAFETY: the caller's lock.
    let new = unsafe { (*lock).state.fetch_sub(sub, Ordering::AcqRel) } - sub;
    if new & (LW_FLAG_HAS_WAITERS | LW_FLAG_RELEASE_OK) == LW_FLAG_HAS_WAITERS | LW_FLAG_RELEASE_OK
        && new & LW_LOCK_MASK == 0
    {
        would_wait(); // LWLockWakeup: never, with one backend
    }
    bm.interrupt_holdoff_count -= 1; // RESUME_INTERRUPTS()
}

#[cold]
#[inline(never)]
fn too_many_lwlocks() -> ! {
    panic!("too many LWLocks taken")
}

#[cold]
#[inline(never)]
fn would_wait() -> ! {
    panic!("LWLock contention: waiting is not modelled (one backend)")
}

#[cold]
#[inline(never)]
fn not_held() -> ! {
    panic!("lock is not held")
}

// ---------------------------------------------------------------------------------------------
// resowner.c.

/// `ResourceOwnerEnlarge`: room for one more entry (the small array always has it here).
#[inline(never)]
fn resource_owner_enlarge(owner: &mut ResourceOwner) {
    if owner.releasing {
        resowner_error("ResourceOwnerEnlarge called after release started");
    }
    if (owner.narr as usize) < RESOWNER_ARRAY_SIZE {
        return;
    }
    resowner_error("resource owner array full: its hash table is not modelled");
}

/// `ResourceOwnerRemember`.
#[inline(never)]
fn resource_owner_remember(owner: &mut ResourceOwner, item: usize, kind: *const ResourceOwnerDesc) {
    if owner.narr as usize >= RESOWNER_ARRAY_SIZE {
        resowner_error("ResourceOwnerRemember called but array was full");
    }
    owner.arr[owner.narr as usize] = ResourceElem { item, kind };
    owner.narr += 1;
}

/// `ResourceOwnerForget`: search the array backwards, move the last entry into the hole.
#[inline(never)]
fn resource_owner_forget(owner: &mut ResourceOwner, item: usize, kind: *const ResourceOwnerDesc) {
    if owner.releasing {
        resowner_error("ResourceOwnerForget called for while releasing");
    }
    let n = owner.narr as usize;
    for i in (0..n).rev() {
        if owner.arr[i].item == item && std::ptr::eq(owner.arr[i].kind, kind) {
            owner.arr[i] = owner.arr[n - 1];
            owner.narr -= 1;
            return;
        }
    }
    resowner_error("resource is not owned by the resource owner");
}

#[cold]
#[inline(never)]
fn resowner_error(msg: &str) -> ! {
    panic!("{msg}")
}

// ---------------------------------------------------------------------------------------------
// bufmgr.c.

/// `ReservePrivateRefCountEntry`: find a free slot in the 8-entry array ahead of pinning.
/// Out of line, as gcc keeps it in 18 (two calls a primitive scan, each returning at once: the
/// slot the last unpin freed is still reserved).
#[inline(never)]
fn reserve_private_ref_count_entry(bm: &mut BufMgr) {
    if bm.reserved.is_some() {
        return;
    }
    for i in 0..REFCOUNT_ARRAY_ENTRIES {
        if bm.refs.array[i].buffer == INVALID_BUFFER {
            bm.reserved = Some(i as u8);
            return;
        }
    }
    resowner_error("private refcount array full: its overflow hash is not modelled");
}

/// `GetPrivateRefCountEntry`: this backend's entry for `buffer`, or null. The C of
/// csrc/pg_bufmgr.c built with PostgreSQL 18's compiler and flags (gcc12-upstream): a linear
/// search of the array, then the overflow hash only if the array ever overflowed (never here),
/// moving the entry back into the array when `do_move` (`PinBuffer` asks for that).
#[inline(always)]
fn get_private_ref_count_entry(bm: &mut BufMgr, buffer: Buffer, do_move: bool) -> *mut PrivateRefCountEntry {
    // SAFETY: `refs` is this backend's live bookkeeping; the C keeps no pointer past the call.
    unsafe { super::cmodel::get_private_ref_count_entry(&raw mut bm.refs, buffer, do_move) }
}

/// What the C `GetPrivateRefCountEntry` calls when entries overflowed into
/// `PrivateRefCountHash`: the model never lets them (`ReservePrivateRefCountEntry` stops at
/// a full array), so reaching it is an error that names the missing piece.
#[unsafe(no_mangle)]
pub extern "C-unwind" fn hl_private_refcount_hash_find(_refs: *mut PrivateRefCount, _buffer: *const Buffer) -> *mut PrivateRefCountEntry {
    resowner_error("private refcount overflow hash is not modelled")
}

/// As [`hl_private_refcount_hash_find`], for moving an entry from the hash into the array.
#[unsafe(no_mangle)]
pub extern "C-unwind" fn hl_private_refcount_move(
    _refs: *mut PrivateRefCount, _res: *mut PrivateRefCountEntry, _buffer: *const Buffer,
) -> *mut PrivateRefCountEntry {
    resowner_error("private refcount overflow hash is not modelled")
}

/// `PinBuffer` (no strategy): bump refcount and usage count with a CAS loop unless this
/// backend already pins the buffer, then remember the pin in the resource owner. Out of line
/// (static in bufmgr.c; 18's profile calls it from `StartReadBuffer`).
#[inline(never)]
fn pin_buffer(bm: &mut BufMgr, id: usize) -> bool {
    let b = id as Buffer + 1;
    let result;
    let mut r = get_private_ref_count_entry(bm, b, true);
    if !r.is_null() {
        result = true;
    } else {
        // NewPrivateRefCountEntry: take the reserved slot.
        let i = bm.reserved.take().expect("ReservePrivateRefCountEntry ran first") as usize;
        bm.refs.array[i] = PrivateRefCountEntry { buffer: b, refcount: 0 };
        r = &raw mut bm.refs.array[i];
        let state = &bm.descriptors[id].state;
        let mut old = state.load(Ordering::Relaxed);
        loop {
            if old & BM_LOCKED != 0 {
                would_wait(); // WaitBufHdrUnlocked
            }
            let mut new = old + BUF_REFCOUNT_ONE;
            if (new & BUF_USAGECOUNT_MASK) >> BUF_USAGECOUNT_SHIFT < BM_MAX_USAGE_COUNT {
                new += BUF_USAGECOUNT_ONE;
            }
            match state.compare_exchange(old, new, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => {
                    result = new & BM_VALID != 0;
                    break;
                }
                Err(now) => old = now,
            }
        }
    }
    // SAFETY: `r` points into `bm.refs.array`, which nothing else borrows now.
    unsafe { (*r).refcount += 1 };
    resource_owner_remember(&mut bm.owner, b as usize, &BUFFER_PIN_RESOWNER_DESC);
    result
}

/// `UnpinBuffer`: forget the pin in the resource owner, then [`unpin_buffer_no_owner`] (inline
/// into its callers, as in 18).
#[inline(always)]
fn unpin_buffer(bm: &mut BufMgr, id: usize) {
    let b = id as Buffer + 1;
    resource_owner_forget(&mut bm.owner, b as usize, &BUFFER_PIN_RESOWNER_DESC);
    unpin_buffer_no_owner(bm, id);
}

/// `UnpinBufferNoOwner`: on the backend's last pin, drop the shared refcount with a CAS loop and
/// free the private slot. Out of line, as in 18's profile.
#[inline(never)]
fn unpin_buffer_no_owner(bm: &mut BufMgr, id: usize) {
    let b = id as Buffer + 1;
    let r = get_private_ref_count_entry(bm, b, false);
    if r.is_null() {
        not_pinned(b);
    }
    // SAFETY: `r` points into `bm.refs.array`, which nothing else borrows now.
    let r = unsafe { &mut *r };
    r.refcount -= 1;
    if r.refcount == 0 {
        let state = &bm.descriptors[id].state;
        let mut old = state.load(Ordering::Relaxed);
        let new = loop {
            if old & BM_LOCKED != 0 {
                would_wait();
            }
            let new = old - BUF_REFCOUNT_ONE;
            match state.compare_exchange(old, new, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => break new,
                Err(now) => old = now,
            }
        };
        if new & BM_PIN_COUNT_WAITER != 0 {
            would_wait();
        }
        // ForgetPrivateRefCountEntry: the slot becomes the reserved one.
        r.buffer = INVALID_BUFFER;
        // SAFETY: `r` points into `bm.refs.array`.
        let i = unsafe { (r as *mut PrivateRefCountEntry).offset_from(bm.refs.array.as_ptr()) };
        bm.reserved = Some(i as u8);
    }
}

#[cold]
#[inline(never)]
fn not_pinned(b: Buffer) -> ! {
    panic!("buffer {b} is not pinned by this backend")
}

#[cold]
#[inline(never)]
fn miss(tag: &BufferTag) -> ! {
    panic!("{tag:?} is not in shared buffers and the pool has no storage to read it from")
}

/// `ReadBuffer(rel, block)` = `ReadBufferExtended(rel, MAIN_FORKNUM, block, RBM_NORMAL, NULL)`,
/// a real call in bufmgr.c.
///
/// # Safety
/// `bm` must be a live pool not borrowed elsewhere.
#[inline(never)]
pub unsafe fn read_buffer(bm: *mut BufMgr, rel: &RelFileLocator, block: BlockNumber) -> Buffer {
    unsafe { read_buffer_extended(bm, rel, MAIN_FORKNUM, block, ReadBufferMode::Normal, std::ptr::null()) }
}

/// `ReadBufferMode`, the modes a reader passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadBufferMode {
    /// `RBM_NORMAL`.
    Normal,
    /// `RBM_ZERO_ON_ERROR`.
    ZeroOnError,
}

/// `RELPERSISTENCE_PERMANENT` and `RELPERSISTENCE_TEMP`.
const RELPERSISTENCE_PERMANENT: u8 = b'p';
const RELPERSISTENCE_TEMP: u8 = b't';
/// `READ_BUFFERS_ZERO_ON_ERROR` and `READ_BUFFERS_SYNCHRONOUSLY`.
const READ_BUFFERS_ZERO_ON_ERROR: i32 = 1 << 0;
const READ_BUFFERS_SYNCHRONOUSLY: i32 = 1 << 3;

/// `ReadBuffersOperation` (bufmgr.h), the fields a single-block read fills.
#[repr(C)]
struct ReadBuffersOperation {
    /// `rel`.
    rel: *const RelFileLocator,
    /// `smgr`: the relation's storage manager handle (its locator here).
    smgr: *const RelFileLocator,
    /// `persistence`.
    persistence: u8,
    /// `forknum`.
    forknum: i32,
    /// `strategy` (null: none).
    strategy: *const u8,
    /// `flags`, `nblocks`, `nblocks_done`: set only when I/O is started.
    flags: i32,
    nblocks: i16,
    nblocks_done: i16,
    /// `blocknum` and `buffers`: the first block and where its buffer is.
    blocknum: BlockNumber,
    buffers: *mut Buffer,
    /// `io_wref` and `io_return`: the I/O started for the blocks and its result.
    io_wref: aio::PgAioWaitRef,
    io_return: aio::PgAioReturn,
}

/// `ReadBufferExtended`: refuse another session's temporary relation, then `ReadBuffer_common`
/// (always inline): the relation's persistence, the mode's flags, a `ReadBuffersOperation` on
/// the stack and [`start_read_buffer`], asked for synchronously; a miss completes in
/// `WaitReadBuffers`. Out of line, as in 18.
///
/// # Safety
/// As [`read_buffer`].
#[inline(never)]
pub unsafe fn read_buffer_extended(
    bm: *mut BufMgr,
    rel: &RelFileLocator,
    fork: i32,
    block: BlockNumber,
    mode: ReadBufferMode,
    strategy: *const u8,
) -> Buffer {
    // RELATION_IS_OTHER_TEMP(reln): the model's relations are permanent.
    let (relpersistence, islocaltemp) = (RELPERSISTENCE_PERMANENT, false);
    if relpersistence == RELPERSISTENCE_TEMP && !islocaltemp {
        not_modelled_here("reading another session's temporary relation");
    }
    // RelationGetSmgr(reln): the smgr handle is open (rd_smgr set).
    let smgr: *const RelFileLocator = rel;
    // ReadBuffer_common.
    if block == P_NEW {
        not_modelled_here("ReadBuffer(P_NEW): extending a relation");
    }
    // The caller waits at once: asynchronous execution would only add dispatch.
    let mut flags = READ_BUFFERS_SYNCHRONOUSLY;
    if mode == ReadBufferMode::ZeroOnError {
        flags |= READ_BUFFERS_ZERO_ON_ERROR;
    }
    let mut operation = ReadBuffersOperation {
        rel,
        smgr,
        persistence: relpersistence,
        forknum: fork,
        strategy,
        flags: 0,
        nblocks: 0,
        nblocks_done: 0,
        blocknum: 0,
        buffers: std::ptr::null_mut(),
        io_wref: aio::PgAioWaitRef::default(),
        io_return: aio::PgAioReturn::default(),
    };
    let mut buffer = INVALID_BUFFER;
    // SAFETY: the caller's pool; operation and buffer are locals.
    unsafe {
        if start_read_buffer(bm, &mut operation, &mut buffer, block, flags) {
            wait_read_buffers(&mut operation);
        }
    }
    buffer
}

/// `InvalidBlockNumber` as `P_NEW`.
const P_NEW: BlockNumber = u32::MAX;

/// `WaitReadBuffers`: the I/O context, then for the operation's I/O, already complete (its
/// result status set by the synchronous read's reclaim), no wait: the result processed
/// (`ProcessReadBuffersResult`: the blocks done counted).
#[inline(never)]
fn wait_read_buffers(operation: &mut ReadBuffersOperation) {
    let _io_context = io_context_for_strategy(operation.strategy);
    while operation.nblocks_done < operation.nblocks {
        // The wait reference is tested twice a read, as 18.6's profile counts: before the
        // result is looked at (an unknown status would mean pgaio_wref_check_done and
        // pgaio_wref_wait) and before it is processed.
        if aio::pgaio_wref_valid(&operation.io_wref) && operation.io_return.result.status == aio::PGAIO_RS_UNKNOWN {
            aio::wait_not_modelled();
        }
        if !aio::pgaio_wref_valid(&operation.io_wref) || operation.io_return.result.status != aio::PGAIO_RS_OK {
            aio::wait_not_modelled();
        }
        operation.nblocks_done += operation.io_return.result.result as i16;
    }
}

/// `IOContextForStrategy`: `IOCONTEXT_NORMAL` without a strategy. Out of line (freelist.c).
#[inline(never)]
fn io_context_for_strategy(strategy: *const u8) -> usize {
    if !strategy.is_null() {
        not_modelled_here("buffer access strategies");
    }
    IOCONTEXT_NORMAL
}

/// `StartReadBuffer` -> `StartReadBuffersImpl` (one block, no forwarding) -> `PinBufferForBlock`
/// (both always inline): the I/O context (`IOContextForStrategy`), `BufferAlloc`'s lookup
/// (the tag, `BufTableHashCode`, the mapping partition's LWLock shared, `BufTableLookup`,
/// `PinBuffer`, the lock released), `shared_blks_hit`, the relation's `blocks_fetched` and
/// `blocks_hit`, `pgstat_count_io_op(IOOP_HIT)` (which in 18 also counts the backend's I/O),
/// the vacuum cost check; a hit on the first block returns false (no `WaitReadBuffers`). On a
/// miss [`buffer_alloc_miss`], then the read started ([`async_read_buffers`]) and true (a
/// pool without storage panics: scans that use one map every page they read at setup). Out
/// of line, as in 18's profile.
///
/// # Safety
/// As [`read_buffer`]; `operation` filled by [`read_buffer_extended`].
#[inline(never)]
unsafe fn start_read_buffer(bm: *mut BufMgr, operation: &mut ReadBuffersOperation, buffer: &mut Buffer, block: BlockNumber, flags: i32) -> bool {
    let bm = unsafe { &mut *bm };
    let nblocks = 1;
    for i in 0..nblocks {
        // PinBufferForBlock.
        if operation.persistence == RELPERSISTENCE_TEMP {
            not_modelled_here("local buffers");
        }
        let io_context = io_context_for_strategy(operation.strategy);
        let io_object = IOOBJECT_RELATION;
        // BufferAlloc: room to remember the pin, then the lookup.
        resource_owner_enlarge(&mut bm.owner);
        reserve_private_ref_count_entry(bm);
        // SAFETY: smgr is the caller's locator.
        let tag = unsafe { (*operation.smgr).tag(block + i) };
        let found;
        // SAFETY: tag is a local; the table and its locks live in bm.
        unsafe {
            let hash = buf_table_hash_code(&bm.table, &tag);
            let part: *const LWLock = &bm.partition_locks[hash as usize % NUM_BUFFER_PARTITIONS].lock;
            lwlock_acquire(bm, part, LWLockMode::Shared);
            let id = buf_table_lookup(&bm.table, &tag, hash);
            if id >= 0 {
                if !pin_buffer(bm, id as usize) {
                    not_modelled_here("a buffer pinned while another backend's read is in progress");
                }
                lwlock_release(bm, part);
                found = true;
                *buffer = id + 1;
                bm.shared_blks_hit += 1; // pgBufferUsage.shared_blks_hit++
            } else {
                lwlock_release(bm, part);
                if bm.storage.is_none() {
                    miss(&tag);
                }
                *buffer = buffer_alloc_miss(bm, &tag, hash);
                found = false;
            }
        }
        bm.blocks_fetched += 1; // pgstat_count_buffer_read(rel)
        if found {
            bm.blocks_hit += 1; // pgstat_count_buffer_hit(rel)
            pgstat_count_io_op(bm, io_object, io_context, IOOP_HIT, 1, 0);
            if bm.vacuum_cost_active {
                bm.vacuum_cost_balance += 1; // VacuumCostPageHit
            }
            if i == 0 {
                return false;
            }
        }
    }
    // A miss: the I/O, started here (io_method is not `sync`) and, being synchronous, done
    // before AsyncReadBuffers returns; WaitReadBuffers then finds it complete.
    operation.flags = flags;
    operation.nblocks = nblocks as i16;
    operation.nblocks_done = 0;
    operation.blocknum = block;
    operation.buffers = buffer;
    aio::pgaio_wref_clear(&mut operation.io_wref);
    // SAFETY: the pool and operation are the caller's; buffer is pinned by this backend.
    unsafe { async_read_buffers(bm, operation) };
    true
}

/// `AsyncReadBuffers` for one block: the handle flagged synchronous, the database's checksum
/// failure statistics prepared (`pgstat_prepare_report_checksum_failure`: a cached entry
/// reference), a handle acquired (its result to land in the operation), the buffer's I/O
/// started (`StartBufferIO`), the handle's wait reference kept in the operation, the buffer
/// as its data, the shared-buffer callbacks registered, then `smgrstartreadv`; the read
/// counted (`pgstat_count_io_op_time`, no I/O timing; `shared_blks_read`). Out of line, as in
/// 18's profile.
///
/// # Safety
/// As [`start_read_buffer`], after the miss pinned `*operation.buffers`.
#[inline(never)]
unsafe fn async_read_buffers(bm: &mut BufMgr, operation: &mut ReadBuffersOperation) {
    let ioh_flags = aio::PGAIO_HF_SYNCHRONOUS;
    let io_context = io_context_for_strategy(operation.strategy);
    // SAFETY: smgr is the caller's locator.
    let rel = unsafe { *operation.smgr };
    pgstat_prepare_report_checksum_failure(bm, rel.db_oid);
    let ret: *mut aio::PgAioReturn = &mut operation.io_return;
    let Some(ioh) = aio::pgaio_io_acquire_nb(bm, ret) else { aio::wait_not_modelled() };
    // ReadBuffersCanStartIO: nothing staged to submit first.
    if aio::pgaio_have_staged(&bm.aio) {
        aio::wait_not_modelled();
    }
    // SAFETY: operation.buffers is the caller's buffer.
    let buffer = unsafe { *operation.buffers };
    let id = buffer as usize - 1;
    if !start_buffer_io(bm, id) {
        not_modelled_here("a block another backend read meanwhile");
    }
    let page = bm.blocks[id].0.as_mut_ptr();
    aio::pgaio_io_get_wref(&bm.aio, ioh, &mut operation.io_wref);
    aio::pgaio_io_set_handle_data_32(&mut bm.aio, ioh, &[buffer as u32]);
    aio::pgaio_io_register_callbacks(&mut bm.aio, ioh, aio::CallbackId::SharedBufferReadv, operation.flags as u8);
    aio::pgaio_io_set_flag(&mut bm.aio, ioh, ioh_flags);
    let io_start = pgstat_prepare_io_time();
    // SAFETY: page is the buffer's block; ioh is ours.
    unsafe { aio::smgrstartreadv(bm, ioh, &rel, operation.forknum, operation.blocknum, page) };
    pgstat_count_io_op_time(bm, IOOBJECT_RELATION, io_context, IOOP_READ, io_start, 1, BLCKSZ as u64);
    bm.shared_blks_read += 1; // pgBufferUsage.shared_blks_read
}

/// `pgstat_prepare_report_checksum_failure(dboid)` (pgstat_database.c): make sure the
/// database's statistics entry is referenced, so a checksum failure found in a critical
/// section can be counted there. Out of line.
#[inline(never)]
fn pgstat_prepare_report_checksum_failure(bm: &mut BufMgr, dboid: u32) {
    crate::pg::pgstat::pgstat_get_entry_ref(&mut bm.pgstat, crate::pg::pgstat::PGSTAT_KIND_DATABASE, dboid, 0, true);
}

/// `pgstat_prepare_io_time(track_io_timing)`: zero, `track_io_timing` being off.
#[inline(never)]
fn pgstat_prepare_io_time() -> u64 {
    if TRACK_IO_TIMING.load(Ordering::Relaxed) {
        not_modelled_here("track_io_timing");
    }
    0
}

/// `track_io_timing` (off by default).
static TRACK_IO_TIMING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `pgstat_count_io_op_time`: without I/O timing, the count alone.
#[inline(never)]
fn pgstat_count_io_op_time(bm: &mut BufMgr, io_object: usize, io_context: usize, io_op: usize, start: u64, cnt: u32, bytes: u64) {
    if start != 0 {
        not_modelled_here("track_io_timing");
    }
    pgstat_count_io_op(bm, io_object, io_context, io_op, cnt, bytes);
}

/// `DataChecksumsEnabled()` (xlog.c): the control file's setting. Out of line.
#[inline(never)]
fn data_checksums_enabled(bm: &BufMgr) -> bool {
    bm.data_checksums
}

// ---------------------------------------------------------------------------------------------
// pgstat_io.c and pgstat_backend.c: the I/O counters.

/// `IOOBJECT_NUM_TYPES` (relation, temp relation, WAL), `IOCONTEXT_NUM_TYPES` (bulkread,
/// bulkwrite, init, normal, vacuum), `IOOP_NUM_TYPES` (evict, fsync, hit, reuse, writeback,
/// extend, read, write): PostgreSQL 18's.
const IOOBJECT_NUM_TYPES: usize = 3;
const IOCONTEXT_NUM_TYPES: usize = 5;
const IOOP_NUM_TYPES: usize = 8;
const IOOBJECT_RELATION: usize = 0;
const IOCONTEXT_NORMAL: usize = 3;
const IOOP_EVICT: usize = 0;
const IOOP_HIT: usize = 2;
const IOOP_READ: usize = 6;

/// `PgStat_PendingIO`: counts and bytes by object, context and operation.
#[derive(Clone, Debug, Default)]
struct PgStatPendingIO {
    counts: [[[i64; IOOP_NUM_TYPES]; IOCONTEXT_NUM_TYPES]; IOOBJECT_NUM_TYPES],
    bytes: [[[u64; IOOP_NUM_TYPES]; IOCONTEXT_NUM_TYPES]; IOOBJECT_NUM_TYPES],
}

/// `BackendType`, the kinds that matter to `pgstat_tracks_backend_bktype`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BackendType {
    /// `B_BACKEND` (and `B_STANDALONE_BACKEND`, which the server's single-user runs are).
    Backend,
    /// An auxiliary process without backend statistics (checkpointer, startup, ...).
    #[allow(dead_code)]
    Auxiliary,
}

/// `pgstat_count_io_op`: the pending I/O count and bytes, the per-backend copy (18's
/// `pgstat_count_backend_io_op`), and the flags that make the next report flush them. Out of
/// line (pgstat_io.c).
#[inline(never)]
fn pgstat_count_io_op(bm: &mut BufMgr, io_object: usize, io_context: usize, io_op: usize, cnt: u32, bytes: u64) {
    bm.pending_io.counts[io_object][io_context][io_op] += cnt as i64;
    bm.pending_io.bytes[io_object][io_context][io_op] += bytes;
    pgstat_count_backend_io_op(bm, io_object, io_context, io_op, cnt, bytes);
    bm.have_iostats = true;
    bm.pgstat_report_fixed = true;
}

/// `pgstat_count_backend_io_op`: the same counts for the backend's own statistics, if its kind
/// keeps them (`pgstat_tracks_backend_bktype`). Out of line (pgstat_backend.c).
#[inline(never)]
fn pgstat_count_backend_io_op(bm: &mut BufMgr, io_object: usize, io_context: usize, io_op: usize, cnt: u32, bytes: u64) {
    if bm.backend_type != BackendType::Backend {
        return;
    }
    bm.backend_io.counts[io_object][io_context][io_op] += cnt as i64;
    bm.backend_io.bytes[io_object][io_context][io_op] += bytes;
    bm.backend_has_iostats = true;
    bm.pgstat_report_fixed = true;
}

// ---------------------------------------------------------------------------------------------
// The miss path: bufmgr.c (BufferAlloc, GetVictimBuffer, InvalidateVictimBuffer, StartBufferIO,
// TerminateBufferIO), freelist.c (StrategyGetBuffer, ClockSweepTick), buf_table.c
// (BufTableInsert, BufTableDelete), md.c (mdreadv), bufpage.c (PageIsVerifiedExtended).

/// `buffer_io_resowner_desc`.
static BUFFER_IO_RESOWNER_DESC: ResourceOwnerDesc = ResourceOwnerDesc { name: "buffer io" };

/// `SpinLockAcquire`: `TAS` (an `xchg`); contention would spin, never here.
#[inline(always)]
fn spin_lock(l: &std::sync::atomic::AtomicBool) {
    if l.swap(true, Ordering::Acquire) {
        would_wait();
    }
}

/// `SpinLockRelease`.
#[inline(always)]
fn spin_unlock(l: &std::sync::atomic::AtomicBool) {
    l.store(false, Ordering::Release);
}

/// `LockBufHdr`: set `BM_LOCKED` with an atomic OR (a spin delay while another backend holds
/// it: never here), then `finish_spin_delay`; the state with the bit set. Out of line, as in
/// 18.
#[inline(never)]
fn lock_buf_hdr(d: &BufferDesc) -> u32 {
    let mut delay = SpinDelayStatus { cur_delay: 0 };
    let old = d.state.fetch_or(BM_LOCKED, Ordering::Acquire);
    if old & BM_LOCKED != 0 {
        would_wait(); // perform_spin_delay
    }
    finish_spin_delay(&mut delay);
    old | BM_LOCKED
}

/// `SpinDelayStatus`, cut to what `finish_spin_delay` reads (`init_local_spin_delay` zeroes it).
struct SpinDelayStatus {
    cur_delay: i32,
}

/// `spins_per_delay` (s_lock.c): the backend's estimate, raised after every uncontended
/// acquisition up to `MAX_SPINS_PER_DELAY`.
static SPINS_PER_DELAY: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(100);
const MAX_SPINS_PER_DELAY: i32 = 1000;
const MIN_SPINS_PER_DELAY: i32 = 10;

/// `finish_spin_delay` (s_lock.c): after an acquisition that never slept, nudge the spin
/// estimate up; after one that did, down. A real call.
#[inline(never)]
fn finish_spin_delay(status: &mut SpinDelayStatus) {
    let s = SPINS_PER_DELAY.load(Ordering::Relaxed);
    if status.cur_delay == 0 {
        if s < MAX_SPINS_PER_DELAY {
            SPINS_PER_DELAY.store((s + 100).min(MAX_SPINS_PER_DELAY), Ordering::Relaxed);
        }
    } else if s > MIN_SPINS_PER_DELAY {
        SPINS_PER_DELAY.store((s - 1).max(MIN_SPINS_PER_DELAY), Ordering::Relaxed);
    }
}

/// `UnlockBufHdr`: a release store of the new state, `BM_LOCKED` cleared.
#[inline(always)]
fn unlock_buf_hdr(d: &BufferDesc, state: u32) {
    d.state.store(state & !BM_LOCKED, Ordering::Release);
}

/// `ClockSweepTick`: advance the hand with an atomic fetch-add; the backend that wraps it
/// folds the counter back under the strategy lock and counts a complete pass.
#[inline(always)]
fn clock_sweep_tick(st: &mut StrategyControl, nbuffers: u32) -> u32 {
    let victim = st.next_victim_buffer.fetch_add(1, Ordering::AcqRel);
    if victim < nbuffers {
        return victim;
    }
    let wrapped = victim % nbuffers;
    if wrapped == 0 {
        spin_lock(&st.lock);
        let mut expected = victim + 1;
        loop {
            match st.next_victim_buffer.compare_exchange(expected, expected % nbuffers, Ordering::AcqRel, Ordering::Relaxed) {
                Ok(_) => {
                    st.complete_passes += 1;
                    break;
                }
                Err(now) => expected = now,
            }
        }
        spin_unlock(&st.lock);
    }
    wrapped
}

#[cold]
#[inline(never)]
fn no_unpinned_buffers() -> ! {
    panic!("no unpinned buffers available")
}

/// `StrategyGetBuffer` without a strategy: a buffer off the free list while it lasts, else
/// the clock sweep (usage counts decremented until an unpinned buffer has none). Returns the
/// buffer with its header locked, and that state.
#[inline(never)]
fn strategy_get_buffer(bm: &mut BufMgr) -> (usize, u32) {
    let n = bm.descriptors.len() as u32;
    let st = &mut bm.strategy;
    if st.bgwprocno != -1 {
        would_wait(); // SetLatch of the bgwriter: no bgwriter in the model
    }
    st.num_buffer_allocs.fetch_add(1, Ordering::AcqRel);
    // An unlocked peek first, as freelist.c does.
    if st.first_free_buffer >= 0 {
        loop {
            spin_lock(&st.lock);
            if st.first_free_buffer < 0 {
                spin_unlock(&st.lock);
                break;
            }
            let id = st.first_free_buffer as usize;
            let d = &mut bm.descriptors[id];
            st.first_free_buffer = d.free_next;
            d.free_next = FREENEXT_NOT_IN_LIST;
            spin_unlock(&st.lock);
            let state = lock_buf_hdr(d);
            if state & BUF_REFCOUNT_MASK == 0 && state & BUF_USAGECOUNT_MASK == 0 {
                return (id, state);
            }
            unlock_buf_hdr(d, state);
        }
    }
    let mut trycounter = n;
    loop {
        let id = clock_sweep_tick(st, n) as usize;
        let d = &bm.descriptors[id];
        let mut state = lock_buf_hdr(d);
        if state & BUF_REFCOUNT_MASK == 0 {
            if state & BUF_USAGECOUNT_MASK != 0 {
                state -= BUF_USAGECOUNT_ONE;
                trycounter = n;
            } else {
                return (id, state);
            }
        } else {
            trycounter -= 1;
            if trycounter == 0 {
                unlock_buf_hdr(d, state);
                no_unpinned_buffers();
            }
        }
        unlock_buf_hdr(d, state);
    }
}

/// `PinBuffer_Locked`: this backend's first pin of a buffer whose header it holds locked; the
/// refcount goes up with the unlocking store.
#[inline(always)]
fn pin_buffer_locked(bm: &mut BufMgr, id: usize, state: u32) {
    let b = id as Buffer + 1;
    let r = bm.reserved.take().expect("ReservePrivateRefCountEntry ran first") as usize;
    unlock_buf_hdr(&bm.descriptors[id], state + BUF_REFCOUNT_ONE);
    bm.refs.array[r] = PrivateRefCountEntry { buffer: b, refcount: 1 };
    resource_owner_remember(&mut bm.owner, b as usize, &BUFFER_PIN_RESOWNER_DESC);
}

#[cold]
#[inline(never)]
fn not_modelled_here(what: &str) -> ! {
    panic!("{what} is not modelled (one backend, a read-only scan)")
}

/// `InvalidateVictimBuffer`: take the victim's old tag out of the mapping table under its
/// partition's exclusive lock, clearing the tag, the flags and the usage count.
#[inline(never)]
unsafe fn invalidate_victim_buffer(bm: &mut BufMgr, id: usize) {
    unsafe {
        let old = bm.descriptors[id].tag;
        let hash = buf_table_hash_code(&bm.table, &old);
        let part: *const LWLock = &bm.partition_locks[hash as usize % NUM_BUFFER_PARTITIONS].lock;
        lwlock_acquire(bm, part, LWLockMode::Exclusive);
        let d = &mut bm.descriptors[id];
        let mut state = lock_buf_hdr(d);
        if state & BUF_REFCOUNT_MASK != BUF_REFCOUNT_ONE || state & BM_DIRTY != 0 {
            not_modelled_here("a victim pinned or dirtied by another backend");
        }
        // ClearBufferTag.
        d.tag = BufferTag { spc_oid: 0, db_oid: 0, rel_number: 0, fork_num: -1, block_num: u32::MAX };
        state &= !(BUF_FLAG_MASK | BUF_USAGECOUNT_MASK);
        unlock_buf_hdr(d, state);
        buf_table_delete(&mut bm.table, &old, hash);
        lwlock_release(bm, part);
    }
}

/// `GetVictimBuffer`: a buffer from the strategy, pinned, its old page (never dirty in a
/// read-only scan) dropped from the mapping table.
#[inline(never)]
unsafe fn get_victim_buffer(bm: &mut BufMgr) -> usize {
    reserve_private_ref_count_entry(bm);
    resource_owner_enlarge(&mut bm.owner);
    let (id, state) = strategy_get_buffer(bm);
    pin_buffer_locked(bm, id, state);
    check_buffer_is_pinned_once(bm, id as Buffer + 1);
    if state & BM_DIRTY != 0 {
        not_modelled_here("writing a dirty victim (FlushBuffer)");
    }
    if state & BM_VALID != 0 {
        // A valid page leaves shared buffers: pg_stat_io's evictions.
        pgstat_count_io_op(bm, IOOBJECT_RELATION, IOCONTEXT_NORMAL, IOOP_EVICT, 1, 0);
    }
    if state & BM_TAG_VALID != 0 {
        unsafe { invalidate_victim_buffer(bm, id) };
    }
    id
}

/// `CheckBufferIsPinnedOnce`: this backend's only pin (`GetPrivateRefCount`). Out of line.
#[inline(never)]
fn check_buffer_is_pinned_once(bm: &mut BufMgr, buffer: Buffer) {
    let r = get_private_ref_count_entry(bm, buffer, false);
    // SAFETY: null, or a pointer into `bm.refs.array`.
    let pins = if r.is_null() { 0 } else { unsafe { (*r).refcount } };
    if pins != 1 {
        not_modelled_here("a victim buffer this backend pins more than once");
    }
}

/// `StartBufferIO` for a read: mark the buffer's I/O in progress and remember it in the
/// resource owner. False when the page became valid meanwhile (another backend's read).
#[inline(never)]
fn start_buffer_io(bm: &mut BufMgr, id: usize) -> bool {
    resource_owner_enlarge(&mut bm.owner);
    let d = &bm.descriptors[id];
    let state = lock_buf_hdr(d);
    if state & BM_IO_IN_PROGRESS != 0 {
        not_modelled_here("waiting for another backend's I/O (WaitIO)");
    }
    if state & BM_VALID != 0 {
        unlock_buf_hdr(d, state);
        return false;
    }
    unlock_buf_hdr(d, state | BM_IO_IN_PROGRESS);
    resource_owner_remember(&mut bm.owner, id + 1, &BUFFER_IO_RESOWNER_DESC);
    true
}

/// `TerminateBufferIO(buf, false, set_flag_bits, forget_owner, release_aio)`: the I/O over
/// (with `release_aio`, the I/O's own pin dropped and its wait reference cleared), the flags
/// set; the resource owner forgets the I/O if it still owns it; any waiter woken
/// (`ConditionVariableBroadcast` on the buffer's I/O CV: its spinlock, no waiters).
#[inline(never)]
fn terminate_buffer_io(bm: &mut BufMgr, id: usize, set_flag_bits: u32, forget_owner: bool, release_aio: bool) {
    let d = &mut bm.descriptors[id];
    let mut state = lock_buf_hdr(d);
    state &= !(BM_IO_IN_PROGRESS | BM_IO_ERROR);
    state |= set_flag_bits;
    if release_aio {
        state -= BUF_REFCOUNT_ONE;
        aio::pgaio_wref_clear(&mut d.io_wref);
    }
    unlock_buf_hdr(d, state);
    if forget_owner {
        resource_owner_forget(&mut bm.owner, id + 1, &BUFFER_IO_RESOWNER_DESC);
    }
    aio::condition_variable_broadcast(&bm.io_cvs[id]);
}

/// `PageIsVerified`: a non-new page's checksum must match (with `checksums` on, 18's initdb
/// default: [`crate::pg::checksum`]) and its header be sane; a new page (`pd_upper == 0`) must
/// be all zeroes.
#[inline(never)]
pub fn page_is_verified(page: &mut [u8; BLCKSZ], blkno: BlockNumber, checksums: bool) -> bool {
    let u16at = |page: &[u8; BLCKSZ], at: usize| u16::from_ne_bytes([page[at], page[at + 1]]);
    let (flags, lower, upper, special) = (u16at(page, 10), u16at(page, 12), u16at(page, 14), u16at(page, 16));
    if upper != 0 {
        let checksum_failure = checksums && crate::pg::checksum::pg_checksum_page(page, blkno) != crate::pg::checksum::stored(page);
        return !checksum_failure
            && flags & !PD_VALID_FLAG_BITS == 0
            && lower <= upper
            && upper <= special
            && special as usize <= BLCKSZ
            && special as usize == maxalign(special as usize);
    }
    page.chunks_exact(8).all(|w| u64::from_ne_bytes(w.try_into().unwrap()) == 0)
}

/// `BufferAlloc`'s miss path: a victim buffer, the new tag into the mapping table under its
/// partition's exclusive lock, the header set (tag valid, usage count 1); the buffer comes
/// back pinned and not yet valid, for [`async_read_buffers`] to read.
///
/// # Safety
/// As [`read_buffer`]; `hash` is `tag`'s hash and `tag` is not in the table.
#[inline(always)]
unsafe fn buffer_alloc_miss(bm: &mut BufMgr, tag: &BufferTag, hash: u32) -> Buffer {
    unsafe {
        let id = get_victim_buffer(bm);
        let part: *const LWLock = &bm.partition_locks[hash as usize % NUM_BUFFER_PARTITIONS].lock;
        lwlock_acquire(bm, part, LWLockMode::Exclusive);
        if buf_table_insert(&mut bm.table, tag, hash, id as i32) >= 0 {
            not_modelled_here("a concurrent read of the same block");
        }
        let d = &mut bm.descriptors[id];
        let state = lock_buf_hdr(d);
        d.tag = *tag;
        unlock_buf_hdr(d, state | BM_TAG_VALID | BM_PERMANENT | BUF_USAGECOUNT_ONE);
        lwlock_release(bm, part);
        id as Buffer + 1
    }
}

/// `BufTableInsert` = `hash_search_with_hash_value(HASH_ENTER)`: the existing entry's buffer,
/// or -1 after linking a free element at the end of the bucket's chain.
#[inline(never)]
unsafe fn buf_table_insert(t: &mut BufTable, tag: &BufferTag, hash: u32, id: i32) -> i32 {
    unsafe {
        let mut prev = t.bucket_slot(hash) as *mut *mut HashElement;
        let match_fn = t.match_fn;
        let mut cur = *prev;
        while !cur.is_null() {
            if (*cur).hashvalue == hash && match_fn((&raw const (*cur).key).cast(), (tag as *const BufferTag).cast(), t.keysize) == 0 {
                return (*cur).id;
            }
            prev = &raw mut (*cur).link;
            cur = *prev;
        }
        // get_hash_entry: pop the free list under its spinlock.
        spin_lock(&t.free_lock);
        let e = t.free_list;
        if e.is_null() {
            spin_unlock(&t.free_lock);
            not_modelled_here("growing the shared buffer mapping table");
        }
        t.free_list = (*e).link;
        spin_unlock(&t.free_lock);
        (*e).link = std::ptr::null_mut();
        (*e).hashvalue = hash;
        (*e).key = *tag;
        (*e).id = id;
        *prev = e;
        -1
    }
}

#[cold]
#[inline(never)]
fn table_corrupted() -> ! {
    panic!("shared buffer hash table corrupted")
}

/// `BufTableDelete` = `hash_search_with_hash_value(HASH_REMOVE)`: unlink the entry and put
/// it on the free list.
#[inline(never)]
unsafe fn buf_table_delete(t: &mut BufTable, tag: &BufferTag, hash: u32) {
    unsafe {
        let mut prev = t.bucket_slot(hash) as *mut *mut HashElement;
        let match_fn = t.match_fn;
        let mut cur = *prev;
        while !cur.is_null() {
            if (*cur).hashvalue == hash && match_fn((&raw const (*cur).key).cast(), (tag as *const BufferTag).cast(), t.keysize) == 0 {
                break;
            }
            prev = &raw mut (*cur).link;
            cur = *prev;
        }
        if cur.is_null() {
            table_corrupted();
        }
        *prev = (*cur).link;
        spin_lock(&t.free_lock);
        (*cur).link = t.free_list;
        t.free_list = cur;
        spin_unlock(&t.free_lock);
    }
}

/// `ReleaseBuffer`: unpin.
///
/// # Safety
/// As [`read_buffer`]; `buffer` must be pinned by this backend.
#[inline(never)]
pub unsafe fn release_buffer(bm: *mut BufMgr, buffer: Buffer) {
    if buffer == INVALID_BUFFER {
        not_pinned(buffer);
    }
    unpin_buffer(unsafe { &mut *bm }, buffer as usize - 1);
}

/// `ReleaseAndReadBuffer`: keep the pin if `buffer` already holds `block`, else unpin it and
/// read `block`.
///
/// # Safety
/// As [`release_buffer`] (`buffer` may be `InvalidBuffer`).
#[inline(never)]
pub unsafe fn release_and_read_buffer(bm: *mut BufMgr, buffer: Buffer, rel: &RelFileLocator, block: BlockNumber) -> Buffer {
    unsafe {
        if buffer != INVALID_BUFFER {
            let b = &mut *bm;
            let tag = &b.descriptors[buffer as usize - 1].tag;
            if tag.block_num == block
                && tag.rel_number == rel.rel_number
                && tag.db_oid == rel.db_oid
                && tag.spc_oid == rel.spc_oid
                && tag.fork_num == MAIN_FORKNUM
            {
                return buffer;
            }
            unpin_buffer(b, buffer as usize - 1);
        }
        read_buffer(bm, rel, block)
    }
}

/// `LockBuffer` mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferLockMode {
    /// `BUFFER_LOCK_UNLOCK`.
    Unlock,
    /// `BUFFER_LOCK_SHARE` (`BT_READ`).
    Share,
    /// `BUFFER_LOCK_EXCLUSIVE` (`BT_WRITE`).
    Exclusive,
}

/// `LockBuffer`: the buffer's content LWLock.
///
/// # Safety
/// As [`release_buffer`].
#[inline(never)]
pub unsafe fn lock_buffer(bm: *mut BufMgr, buffer: Buffer, mode: BufferLockMode) {
    unsafe {
        if buffer < 0 {
            return; // BufferIsLocal: local buffers need no lock
        }
        let b = &mut *bm;
        let lock: *const LWLock = &b.descriptors[buffer as usize - 1].content_lock;
        match mode {
            BufferLockMode::Unlock => lwlock_release(b, lock),
            BufferLockMode::Share => _ = lwlock_acquire(b, lock, LWLockMode::Shared),
            BufferLockMode::Exclusive => _ = lwlock_acquire(b, lock, LWLockMode::Exclusive),
        }
    }
}

/// `BufferGetPage`.
///
/// # Safety
/// `buffer` must be a valid, pinned buffer of `bm`.
#[inline(always)]
pub unsafe fn buffer_get_page(bm: *const BufMgr, buffer: Buffer) -> *const Page {
    unsafe { *(*bm).pages.as_ptr().add(buffer as usize - 1) }
}

/// `BufferGetBlockNumber`: read from the descriptor's tag (a local buffer would be a negative
/// number). Out of line: an exported bufmgr.c function (18's profile: two calls a primitive
/// scan, `_bt_search`'s stack entry and `_bt_readpage`).
///
/// # Safety
/// As [`buffer_get_page`].
#[inline(never)]
pub unsafe fn buffer_get_block_number(bm: *const BufMgr, buffer: Buffer) -> BlockNumber {
    if buffer < 0 {
        not_modelled_here("local buffers");
    }
    unsafe { (*(*bm).descriptors.as_ptr().add(buffer as usize - 1)).tag.block_num }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REL: RelFileLocator = RelFileLocator { spc_oid: 1663, db_oid: 5, rel_number: 16_384 };

    #[test]
    fn hash_bytes_spreads_tags_over_partitions() {
        let mut parts = [0u32; NUM_BUFFER_PARTITIONS];
        for b in 0..(NUM_BUFFER_PARTITIONS as u32 * 64) {
            let t = REL.tag(b);
            let h = unsafe { tag_hash((&raw const t).cast(), 20) };
            assert_eq!(h, unsafe { hash_bytes((&raw const t).cast(), 20) });
            parts[h as usize % NUM_BUFFER_PARTITIONS] += 1;
        }
        // Roughly uniform: no partition empty or over four times its share.
        assert!(parts.iter().all(|&n| n > 0 && n < 4 * 64), "{parts:?}");
        // Every tail length takes its own path.
        let bytes: Vec<u8> = (0..32u8).collect();
        let hs: Vec<u32> = (0..32).map(|n| unsafe { hash_bytes(bytes.as_ptr(), n) }).collect();
        let mut d = hs.clone();
        d.sort_unstable();
        d.dedup();
        assert_eq!(d.len(), hs.len());
        // The tail's word loads add what byte-at-a-time lookup3 adds, at every length.
        let reference = |k: &[u8]| {
            let init = 0x9e37_79b9u32.wrapping_add(k.len() as u32).wrapping_add(3_923_095);
            let (mut a, mut b, mut c) = (init, init, init);
            let mut rest = k;
            while rest.len() >= 12 {
                let w = |i: usize| u32::from_le_bytes(rest[i..i + 4].try_into().unwrap());
                a = a.wrapping_add(w(0));
                b = b.wrapping_add(w(4));
                c = c.wrapping_add(w(8));
                mix(&mut a, &mut b, &mut c);
                rest = &rest[12..];
            }
            for (i, &x) in rest.iter().enumerate() {
                let x = x as u32;
                match i {
                    0..4 => a = a.wrapping_add(x << (8 * i)),
                    4..8 => b = b.wrapping_add(x << (8 * (i - 4))),
                    _ => c = c.wrapping_add(x << (8 * (i - 7))),
                }
            }
            final_mix(&mut a, &mut b, &mut c);
            c
        };
        let noise: Vec<u8> = (0..64u32).map(|i| (i.wrapping_mul(0x9e37_79b9) >> 11) as u8).collect();
        for n in 0..64 {
            assert_eq!(unsafe { hash_bytes(noise.as_ptr(), n) }, reference(&noise[..n]), "length {n}");
        }
    }

    #[test]
    fn read_lock_release_balance() {
        let pages: Vec<Box<Page>> = (0..3).map(|_| Page::new(16)).collect();
        let mut bm = BufMgr::new(64);
        for (i, p) in pages.iter().enumerate() {
            bm.map(REL.tag(i as u32 + 1), &**p).unwrap();
        }
        assert_eq!(bm.map(REL.tag(1), std::ptr::null()), Err(BufMgrError::AlreadyMapped(REL.tag(1))));
        let bmp: *mut BufMgr = &mut *bm;
        unsafe {
            let a = read_buffer(bmp, &REL, 2);
            assert_eq!(buffer_get_block_number(bmp, a), 2);
            assert!(std::ptr::eq(buffer_get_page(bmp, a), &*pages[1]));
            lock_buffer(bmp, a, BufferLockMode::Share);
            // A second pin of the same buffer by this backend: private refcount only.
            let a2 = read_buffer(bmp, &REL, 2);
            assert_eq!(a, a2);
            assert_eq!((*bmp).held(), (2, 2, 1, 1));
            let b = release_and_read_buffer(bmp, a2, &REL, 3);
            assert_eq!((*bmp).held(), (2, 2, 1, 2));
            lock_buffer(bmp, a, BufferLockMode::Unlock);
            release_buffer(bmp, a);
            release_buffer(bmp, b);
            assert_eq!((*bmp).held(), (0, 0, 0, 0));
            for _ in 0..10 {
                let x = read_buffer(bmp, &REL, 1);
                release_buffer(bmp, x);
            }
            assert_eq!((*bmp).usage_count(1), BM_MAX_USAGE_COUNT);
            assert_eq!((*bmp).shared_blks_hit, 13);
        }
        let mut small = BufMgr::new(1);
        small.map(REL.tag(1), std::ptr::null()).unwrap();
        assert_eq!(small.map(REL.tag(2), std::ptr::null()), Err(BufMgrError::NoFreeBuffer));
    }

    /// A relation file of `n` pages, page `b` marked with `b` in its first free byte.
    fn file_of(n: u32) -> std::fs::File {
        use std::io::Write;
        let mut f = tempfile::tempfile().unwrap();
        for b in 0..n {
            let mut p = Page::new(16);
            p.0[100] = b as u8;
            crate::pg::checksum::set_checksum(&mut p.0, b);
            f.write_all(&p.0).unwrap();
        }
        f
    }

    fn read_release(bm: &mut BufMgr, b: u32) -> (Buffer, u8) {
        let bmp: *mut BufMgr = bm;
        unsafe {
            let x = read_buffer(bmp, &REL, b);
            let mark = (*buffer_get_page(bmp, x)).0[100];
            release_buffer(bmp, x);
            (x, mark)
        }
    }

    #[test]
    fn misses_read_the_file_and_the_clock_sweep_evicts_the_oldest() {
        let mut bm = BufMgr::with_storage(3, vec![(REL, file_of(10))]);
        assert_eq!(bm.map(REL.tag(1), std::ptr::null()), Err(BufMgrError::HasStorage));
        for b in 0..10 {
            let (_, mark) = read_release(&mut bm, b);
            assert_eq!(mark, b as u8, "block {b} read from the file");
        }
        assert_eq!((bm.shared_blks_read, bm.shared_blks_hit, bm.blocks_fetched), (10, 0, 10));
        // Each read went through an AIO handle, performed and reclaimed before it returned;
        // the last seven took a valid page's buffer (pg_stat_io's evictions).
        assert!(bm.io_handles_idle() && bm.ios_reclaimed() == 10);
        let io = |op: usize| bm.pending_io.counts[IOOBJECT_RELATION][IOCONTEXT_NORMAL][op];
        assert_eq!((io(IOOP_READ), io(IOOP_EVICT), io(IOOP_HIT)), (10, 7, 0));
        assert!(bm.descriptors.iter().all(|d| !aio::pgaio_wref_valid(&d.io_wref)), "no buffer waits on an I/O");
        // Three buffers: the last three blocks are mapped, every older tag is gone.
        for b in 0..7 {
            assert_eq!(bm.lookup(&REL.tag(b)), None, "block {b} evicted");
        }
        for b in 7..10 {
            assert!(bm.lookup(&REL.tag(b)).is_some(), "block {b} mapped");
        }
        assert_eq!(bm.held(), (0, 0, 0, 0));
        // A hit now: no read, usage count up.
        let (x, mark) = read_release(&mut bm, 9);
        assert_eq!((mark, bm.shared_blks_read, bm.shared_blks_hit), (9, 10, 1));
        assert_eq!(bm.usage_count(x), 2);
        // The sweep passes over 9 (usage 2 -> 1) and takes 7 then 8; 9 stays.
        read_release(&mut bm, 0);
        read_release(&mut bm, 1);
        assert!(bm.lookup(&REL.tag(9)).is_some() && bm.lookup(&REL.tag(7)).is_none() && bm.lookup(&REL.tag(8)).is_none());
        assert!(bm.clock().0 >= 2, "the hand wrapped: {:?}", bm.clock());
    }

    #[test]
    fn a_pinned_buffer_is_never_a_victim() {
        let mut bm = BufMgr::with_storage(2, vec![(REL, file_of(8))]);
        let bmp: *mut BufMgr = &mut *bm;
        unsafe {
            let held = read_buffer(bmp, &REL, 3);
            for b in [0, 1, 2, 4, 5, 6, 7, 0, 1] {
                let (_, mark) = read_release(&mut *bmp, b);
                assert_eq!(mark, b as u8);
            }
            assert_eq!((*bmp).lookup(&REL.tag(3)), Some(held));
            assert_eq!((*buffer_get_page(bmp, held)).0[100], 3);
            release_buffer(bmp, held);
            assert_eq!((*bmp).held(), (0, 0, 0, 0));
        }
    }

    #[test]
    #[should_panic(expected = "no unpinned buffers available")]
    fn every_buffer_pinned_is_an_error() {
        let mut bm = BufMgr::with_storage(1, vec![(REL, file_of(2))]);
        let bmp: *mut BufMgr = &mut *bm;
        unsafe {
            let _held = read_buffer(bmp, &REL, 0);
            read_buffer(bmp, &REL, 1);
        }
    }

    #[test]
    fn page_verification_rejects_a_corrupt_header() {
        let mut p = Page::new(16);
        assert!(page_is_verified(&mut p.0, 0, false));
        assert!(page_is_verified(&mut [0; BLCKSZ], 0, true), "a new (all-zero) page is valid");
        // Checksums on: only the block the checksum was set for, and only unchanged.
        crate::pg::checksum::set_checksum(&mut p.0, 5);
        assert!(page_is_verified(&mut p.0, 5, true) && !page_is_verified(&mut p.0, 6, true));
        p.0[300] ^= 1;
        assert!(!page_is_verified(&mut p.0, 5, true) && page_is_verified(&mut p.0, 5, false));
        p.0[14] = 0xff; // pd_upper beyond pd_special
        p.0[15] = 0x7f;
        assert!(!page_is_verified(&mut p.0, 5, false));
        let mut z = [0u8; BLCKSZ];
        z[4000] = 1;
        assert!(!page_is_verified(&mut z, 0, false), "a new page with data is not");
    }
}
