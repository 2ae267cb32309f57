//! A read stream (src/backend/storage/aio/read_stream.c, reference §4) over one data file,
//! with three of PostgreSQL's `io_method`s behind it, and the page-cache controls a cold-cache
//! measurement needs.
//!
//! What is modelled, from the reference and read_stream.c:
//! - `max_ios` = effective_io_concurrency (16); `max_pinned_buffers` = (max_ios + 1) ×
//!   io_combine_limit = 272, limited by the strategy's pin limit (the whole BAS_BULKREAD ring,
//!   288 buffers) and by `GetPinLimit()` (MaxProportionalPins = NBuffers / (MaxBackends +
//!   NUM_AUXILIARY_PROCS); the reference infers 100–130 at shared_buffers = 128 MB; we take
//!   16384 / 128 = **128**); `queue_size` = max_pinned_buffers + 1 (the consumer's page is
//!   never the target of a new read).
//! - `READ_STREAM_FULL`: `readahead_distance` and `combine_distance` start at
//!   min(max_pinned_buffers, io_combine_limit) = 16. After waiting for an IO, the readahead
//!   distance doubles (capped at max_pinned_buffers) only if a wait was needed (synchronous IO
//!   counts as one); the combine distance doubles up to io_combine_limit whenever IO
//!   happened; the decay holdoff is reset (reference §4.3). A scan through a BAS_BULKREAD ring
//!   finds none of a large index in shared buffers, so every block needs IO here and the
//!   decay path is never taken.
//! - Look-ahead: consecutive blocks merge into the pending read up to the combine distance;
//!   at most `max_ios` reads in progress; `READ_STREAM_USE_BATCHING` brackets each look-ahead
//!   with batch mode, so io_uring and the workers see one submission per look-ahead.
//! - Advice (`posix_fadvise(WILLNEED)`): only with io_method=sync and without direct IO, as
//!   `read_stream_begin_impl` decides, and only as `read_stream_start_pending_read` issues it:
//!   at a random jump when something is already pinned, then for the sequential region until
//!   the first advised read has been waited for, "then stay out of the way of the kernel's own
//!   read-ahead". A block-range scan from block 1 therefore issues **no** advice: its first
//!   read is a jump with nothing pinned, and its waits catch up before the next read starts.
//!   The count is reported so that this shows.
//!
//! I/O methods ([`IoMethod`]):
//! - [`SyncIo`] (io_method=sync): `StartReadBuffers` only issues advice; the `preadv` happens
//!   in `WaitReadBuffers`, when the consumer reaches the block (bufmgr.c's IOMETHOD_SYNC path).
//! - [`WorkerIo`] (io_method=worker): reads are queued to a pool of I/O worker threads
//!   ([`WorkerPool`], `io_workers` = 3) that run `preadv` and signal completion.
//! - [`IoUringIo`] (io_method=io_uring): `IORING_OP_READV` submissions on a ring, one
//!   `io_uring_enter` per batch, completions reaped when a buffer is needed.
//!
//! Memory safety: buffers and iovecs stay put while a read is in flight (the queue's pages
//! are one allocation, the IO slots a boxed slice), a slot's page is only read after its IO
//! completed, and dropping a stream waits for every read in flight before freeing anything.

use super::itemptr::{BlockNumber, INVALID_BLOCK_NUMBER};
use super::page::BLCKSZ;
use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::collections::VecDeque;
use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// `DEFAULT_IO_COMBINE_LIMIT` = min(PG_IOV_MAX, 128 KiB / BLCKSZ) = 16 blocks.
pub const DEFAULT_IO_COMBINE_LIMIT: usize = 16;
/// `effective_io_concurrency` default.
pub const DEFAULT_EFFECTIVE_IO_CONCURRENCY: usize = 16;
/// `io_workers` default.
pub const DEFAULT_IO_WORKERS: usize = 3;
/// BAS_BULKREAD ring: 256 KiB + 8 KiB × io_combine_limit × effective_io_concurrency, in buffers.
pub const BAS_BULKREAD_RING_BUFFERS: usize =
    (256 * 1024 + BLCKSZ * DEFAULT_IO_COMBINE_LIMIT * DEFAULT_EFFECTIVE_IO_CONCURRENCY) / BLCKSZ;
/// `GetPinLimit()` (MaxProportionalPins) we assume: 16384 buffers / 128 backends.
pub const DEFAULT_PIN_LIMIT: usize = 128;
/// Alignment of buffers for direct IO (`PG_IO_ALIGN_SIZE`).
pub const IO_ALIGN: usize = 4096;

const _: () = assert!(BAS_BULKREAD_RING_BUFFERS == 288);

/// The stream's settings: GUCs, flags and limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamConfig {
    /// `io_combine_limit`, blocks.
    pub io_combine_limit: usize,
    /// `max_ios` (effective_io_concurrency).
    pub max_ios: usize,
    /// `GetAccessStrategyPinLimit(strategy)`.
    pub strategy_pin_limit: usize,
    /// `GetPinLimit()`.
    pub pin_limit: usize,
    /// `READ_STREAM_FULL`.
    pub full: bool,
    /// `READ_STREAM_USE_BATCHING`.
    pub batching: bool,
}

impl Default for StreamConfig {
    /// PostgreSQL's defaults with blgetbitmap's flags (FULL | USE_BATCHING) and BAS_BULKREAD.
    fn default() -> Self {
        StreamConfig {
            io_combine_limit: DEFAULT_IO_COMBINE_LIMIT,
            max_ios: DEFAULT_EFFECTIVE_IO_CONCURRENCY,
            strategy_pin_limit: BAS_BULKREAD_RING_BUFFERS,
            pin_limit: DEFAULT_PIN_LIMIT,
            full: true,
            batching: true,
        }
    }
}

impl StreamConfig {
    /// `queue_size` = max_pinned_buffers + 1: pages a stream's queue needs.
    pub fn queue_size(&self) -> usize {
        self.max_pinned_buffers() + 1
    }

    /// `max_pinned_buffers` as `read_stream_begin_impl` computes it.
    pub fn max_pinned_buffers(&self) -> usize {
        let overflow = self.io_combine_limit - 1;
        ((self.max_ios + 1) * self.io_combine_limit)
            .min(i16::MAX as usize - overflow - 1)
            .min(self.strategy_pin_limit)
            .min(self.pin_limit)
            .max(1)
    }
}

/// What a scan cost in IO.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IoStats {
    /// Read requests: `pread`/`preadv` calls, or io_uring read submissions (entries).
    pub read_calls: u64,
    /// Bytes those requests returned.
    pub bytes_read: u64,
    /// `posix_fadvise(WILLNEED)` calls.
    pub advice_calls: u64,
    /// Reads (IOs) started by the stream.
    pub ios: u64,
    /// Times the consumer had to wait for a read (synchronous reads always count).
    pub waits: u64,
    /// Submissions: `io_uring_enter` calls, or batches handed to the workers.
    pub submits: u64,
    /// Most reads in progress at once (`ios_in_progress`: started, not yet waited for; with
    /// io_method=sync a started read has only pinned its buffers, its `preadv` runs when it
    /// is waited for).
    pub max_ios_in_flight: u64,
    /// Largest readahead distance reached, blocks.
    pub max_distance: u64,
}

impl IoStats {
    /// Add `o` into `self` (maxima take the larger).
    pub fn add(&mut self, o: &IoStats) {
        self.read_calls += o.read_calls;
        self.bytes_read += o.bytes_read;
        self.advice_calls += o.advice_calls;
        self.ios += o.ios;
        self.waits += o.waits;
        self.submits += o.submits;
        self.max_ios_in_flight = self.max_ios_in_flight.max(o.max_ios_in_flight);
        self.max_distance = self.max_distance.max(o.max_distance);
    }
}

/// A relation's data file opened for reading, buffered or with `O_DIRECT`.
///
/// Each scan opens its own: readahead state and `posix_fadvise` access-pattern advice belong
/// to the open file description, so nothing one variant does to them reaches the next.
#[derive(Debug)]
pub struct DataFile {
    file: File,
    path: PathBuf,
    direct: bool,
    nblocks: BlockNumber,
}

impl DataFile {
    /// Open `path` (`O_DIRECT` if `direct`); its length must be a whole number of pages.
    pub fn open(path: &Path, direct: bool) -> io::Result<Self> {
        let mut o = OpenOptions::new();
        o.read(true).custom_flags(libc::O_CLOEXEC | if direct { libc::O_DIRECT } else { 0 });
        let file = o.open(path).map_err(|e| {
            let what = if direct && e.raw_os_error() == Some(libc::EINVAL) {
                " (the file system refuses O_DIRECT)"
            } else {
                ""
            };
            io::Error::new(e.kind(), format!("opening {}{}: {e}{what}", path.display(), if direct { " with O_DIRECT" } else { "" }))
        })?;
        let len = file.metadata()?.len();
        if len % BLCKSZ as u64 != 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{}: length {len} is not a whole number of {BLCKSZ}-byte pages", path.display()),
            ));
        }
        let nblocks = BlockNumber::try_from(len / BLCKSZ as u64)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, format!("{}: too many blocks", path.display())))?;
        Ok(DataFile { file, path: path.to_path_buf(), direct, nblocks })
    }

    /// `RelationGetNumberOfBlocks`.
    pub fn nblocks(&self) -> BlockNumber {
        self.nblocks
    }

    /// Opened with `O_DIRECT`.
    pub fn direct(&self) -> bool {
        self.direct
    }

    /// The path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn fd(&self) -> RawFd {
        self.file.as_raw_fd()
    }

    fn context(&self, what: &str, blk: BlockNumber, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("{}: {what} block {blk}: {e}", self.path.display()))
    }
}

/// `n` pages of zeroed memory aligned for direct IO.
pub struct AlignedPages {
    ptr: NonNull<u8>,
    n: usize,
}

// SAFETY: plain memory; who may touch which page when is the stream's business.
unsafe impl Send for AlignedPages {}

impl AlignedPages {
    /// Allocate `n` (> 0) pages.
    pub fn new(n: usize) -> Self {
        let layout = Self::layout(n);
        // SAFETY: layout has non-zero size.
        let p = unsafe { alloc_zeroed(layout) };
        let ptr = NonNull::new(p).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        AlignedPages { ptr, n }
    }

    fn layout(n: usize) -> Layout {
        Layout::from_size_align(n.max(1) * BLCKSZ, IO_ALIGN).expect("page buffer layout")
    }

    /// Pointer to page `i`.
    pub fn page_ptr(&self, i: usize) -> *mut u8 {
        assert!(i < self.n);
        // SAFETY: in bounds of the allocation.
        unsafe { self.ptr.as_ptr().add(i * BLCKSZ) }
    }

    /// Pages held.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Never empty.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

impl Drop for AlignedPages {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { dealloc(self.ptr.as_ptr(), Self::layout(self.n)) }
    }
}

/// One read: `nblocks` blocks from `blocknum` into at most two runs of queue pages (two when
/// it wraps around the end of the queue; adjacent buffers merge as `buffers_to_iovec` does).
#[derive(Clone, Copy)]
pub struct IoOp {
    /// First block.
    pub blocknum: BlockNumber,
    /// Blocks.
    pub nblocks: usize,
    iov: [libc::iovec; 2],
    niov: usize,
}

// SAFETY: the iovecs point into the stream's pages, which outlive every read in flight.
unsafe impl Send for IoOp {}

impl IoOp {
    const EMPTY: IoOp = IoOp {
        blocknum: INVALID_BLOCK_NUMBER,
        nblocks: 0,
        iov: [libc::iovec { iov_base: std::ptr::null_mut(), iov_len: 0 }; 2],
        niov: 0,
    };

    fn offset(&self) -> u64 {
        self.blocknum as u64 * BLCKSZ as u64
    }

    fn len(&self) -> usize {
        self.nblocks * BLCKSZ
    }
}

/// `preadv` until `op` is complete; returns the number of calls. A read past the end of the
/// file is an error (the file shrank under us).
fn preadv_full(fd: RawFd, op: &IoOp, mut done: usize) -> io::Result<u64> {
    let mut calls = 0;
    while done < op.len() {
        // Rebuild the iovecs past what is already read (short reads are legal).
        let mut iov = [libc::iovec { iov_base: std::ptr::null_mut(), iov_len: 0 }; 2];
        let mut n = 0;
        let mut skip = done;
        for v in &op.iov[..op.niov] {
            if skip >= v.iov_len {
                skip -= v.iov_len;
                continue;
            }
            // SAFETY: within the original iovec.
            iov[n] = libc::iovec { iov_base: unsafe { (v.iov_base as *mut u8).add(skip) }.cast(), iov_len: v.iov_len - skip };
            skip = 0;
            n += 1;
        }
        // SAFETY: the iovecs describe writable memory owned by the stream.
        let r = unsafe { libc::preadv(fd, iov.as_ptr(), n as i32, (op.offset() + done as u64) as libc::off_t) };
        calls += 1;
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if r == 0 {
            return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "read past the end of the file"));
        }
        done += r as usize;
    }
    Ok(calls)
}

/// `pread` of one block into `page` (`ReadBufferExtended`'s read on a miss).
pub fn read_block(file: &DataFile, blk: BlockNumber, page: *mut u8, stats: &mut IoStats) -> io::Result<()> {
    let op = IoOp {
        blocknum: blk,
        nblocks: 1,
        iov: [libc::iovec { iov_base: page.cast(), iov_len: BLCKSZ }, IoOp::EMPTY.iov[1]],
        niov: 1,
    };
    let calls = preadv_full(file.fd(), &op, 0).map_err(|e| file.context("reading", blk, e))?;
    stats.read_calls += calls;
    stats.bytes_read += BLCKSZ as u64;
    stats.ios += 1;
    stats.waits += 1;
    stats.max_ios_in_flight = stats.max_ios_in_flight.max(1);
    Ok(())
}

/// An `io_method`: how the stream's reads are started and waited for.
pub trait IoMethod {
    /// `io_method` name.
    fn name(&self) -> &'static str;
    /// io_method=sync: advice may be enabled.
    fn is_sync(&self) -> bool {
        false
    }
    /// Start read `op` in IO slot `slot`; `advice`: `READ_BUFFERS_ISSUE_ADVICE`.
    fn start(&mut self, file: &DataFile, slot: usize, op: &IoOp, advice: bool, stats: &mut IoStats) -> io::Result<()>;
    /// Wait for slot `slot`'s read; true if the consumer had to wait.
    fn wait(&mut self, file: &DataFile, slot: usize, op: &IoOp, stats: &mut IoStats) -> io::Result<bool>;
    /// `pgaio_enter_batchmode`.
    fn enter_batch(&mut self) {}
    /// `pgaio_exit_batchmode`: submit what was staged.
    fn exit_batch(&mut self, _stats: &mut IoStats) -> io::Result<()> {
        Ok(())
    }
    /// Wait for every read in flight, ignoring results. False if that could not be
    /// guaranteed (the caller must then leak the memory the reads target).
    fn drain(&mut self) -> bool;
}

/// io_method=sync.
#[derive(Debug, Default)]
pub struct SyncIo;

impl IoMethod for SyncIo {
    fn name(&self) -> &'static str {
        "sync"
    }

    fn is_sync(&self) -> bool {
        true
    }

    fn start(&mut self, file: &DataFile, _slot: usize, op: &IoOp, advice: bool, stats: &mut IoStats) -> io::Result<()> {
        if advice {
            // smgrprefetch -> FilePrefetch -> posix_fadvise(POSIX_FADV_WILLNEED).
            // SAFETY: plain syscall on an open fd.
            let r = unsafe {
                libc::posix_fadvise(file.fd(), op.offset() as libc::off_t, op.len() as libc::off_t, libc::POSIX_FADV_WILLNEED)
            };
            stats.advice_calls += 1;
            if r != 0 {
                return Err(file.context("advising", op.blocknum, io::Error::from_raw_os_error(r)));
            }
        }
        Ok(())
    }

    fn wait(&mut self, file: &DataFile, _slot: usize, op: &IoOp, stats: &mut IoStats) -> io::Result<bool> {
        let calls = preadv_full(file.fd(), op, 0).map_err(|e| file.context("reading", op.blocknum, e))?;
        stats.read_calls += calls;
        stats.bytes_read += op.len() as u64;
        Ok(true)
    }

    fn drain(&mut self) -> bool {
        true
    }
}

/// A queued read for an I/O worker.
struct Job {
    fd: RawFd,
    op: IoOp,
    slot: usize,
    done: Arc<Completions>,
}

enum SlotState {
    Idle,
    InFlight,
    Done(io::Result<u64>),
}

/// Completion slots of one stream's reads.
struct Completions {
    slots: Mutex<Vec<SlotState>>,
    cv: Condvar,
}

struct PoolQueue {
    jobs: VecDeque<Job>,
    shutdown: bool,
}

struct PoolShared {
    queue: Mutex<PoolQueue>,
    cv: Condvar,
}

/// PostgreSQL's I/O workers: long-lived threads that execute queued reads.
pub struct WorkerPool {
    shared: Arc<PoolShared>,
    threads: Vec<JoinHandle<()>>,
}

impl WorkerPool {
    /// Start `n` workers.
    pub fn new(n: usize) -> io::Result<Self> {
        let shared = Arc::new(PoolShared { queue: Mutex::new(PoolQueue { jobs: VecDeque::new(), shutdown: false }), cv: Condvar::new() });
        let mut threads = Vec::new();
        for i in 0..n.max(1) {
            let s = shared.clone();
            threads.push(std::thread::Builder::new().name(format!("io-worker-{i}")).spawn(move || {
                // PostgreSQL's I/O workers are processes of their own, which the scheduler puts
                // beside a busy backend: not on the measuring thread's core.
                crate::host::affinity::avoid_measuring_core();
                worker_main(&s)
            })?);
        }
        Ok(WorkerPool { shared, threads })
    }

    /// Workers running.
    pub fn workers(&self) -> usize {
        self.threads.len()
    }
}

fn worker_main(s: &PoolShared) {
    loop {
        let job = {
            let mut q = s.queue.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(j) = q.jobs.pop_front() {
                    break j;
                }
                if q.shutdown {
                    return;
                }
                q = s.cv.wait(q).unwrap_or_else(|e| e.into_inner());
            }
        };
        let r = preadv_full(job.fd, &job.op, 0);
        let mut slots = job.done.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots[job.slot] = SlotState::Done(r);
        drop(slots);
        job.done.cv.notify_all();
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        self.shared.queue.lock().unwrap_or_else(|e| e.into_inner()).shutdown = true;
        self.shared.cv.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// io_method=worker: one stream's view of a [`WorkerPool`].
pub struct WorkerIo<'p> {
    pool: &'p WorkerPool,
    done: Arc<Completions>,
    staged: Vec<Job>,
    batch: bool,
}

impl<'p> WorkerIo<'p> {
    /// Reads of one stream (`max_ios` slots) through `pool`.
    pub fn new(pool: &'p WorkerPool, max_ios: usize) -> Self {
        let slots = (0..max_ios).map(|_| SlotState::Idle).collect();
        WorkerIo { pool, done: Arc::new(Completions { slots: Mutex::new(slots), cv: Condvar::new() }), staged: Vec::new(), batch: false }
    }

    fn submit_staged(&mut self, stats: &mut IoStats) {
        if self.staged.is_empty() {
            return;
        }
        let n = self.staged.len();
        self.pool.shared.queue.lock().unwrap_or_else(|e| e.into_inner()).jobs.extend(self.staged.drain(..));
        // Wake a worker per read, as pgaio_worker_submit does (up to the idle ones).
        for _ in 0..n.min(self.pool.workers()) {
            self.pool.shared.cv.notify_one();
        }
        stats.submits += 1;
    }
}

impl IoMethod for WorkerIo<'_> {
    fn name(&self) -> &'static str {
        "worker"
    }

    fn start(&mut self, file: &DataFile, slot: usize, op: &IoOp, _advice: bool, stats: &mut IoStats) -> io::Result<()> {
        self.done.slots.lock().unwrap_or_else(|e| e.into_inner())[slot] = SlotState::InFlight;
        self.staged.push(Job { fd: file.fd(), op: *op, slot, done: self.done.clone() });
        if !self.batch {
            self.submit_staged(stats);
        }
        Ok(())
    }

    fn enter_batch(&mut self) {
        self.batch = true;
    }

    fn exit_batch(&mut self, stats: &mut IoStats) -> io::Result<()> {
        self.batch = false;
        self.submit_staged(stats);
        Ok(())
    }

    fn wait(&mut self, file: &DataFile, slot: usize, op: &IoOp, stats: &mut IoStats) -> io::Result<bool> {
        self.submit_staged(stats);
        let mut slots = self.done.slots.lock().unwrap_or_else(|e| e.into_inner());
        let mut waited = false;
        while matches!(slots[slot], SlotState::InFlight) {
            waited = true;
            slots = self.done.cv.wait(slots).unwrap_or_else(|e| e.into_inner());
        }
        match std::mem::replace(&mut slots[slot], SlotState::Idle) {
            SlotState::Done(Ok(calls)) => {
                stats.read_calls += calls;
                stats.bytes_read += op.len() as u64;
                Ok(waited)
            }
            SlotState::Done(Err(e)) => Err(file.context("reading (I/O worker)", op.blocknum, e)),
            _ => Err(file.context("waiting for", op.blocknum, io::Error::other("no read was started"))),
        }
    }

    fn drain(&mut self) -> bool {
        let mut stats = IoStats::default();
        self.submit_staged(&mut stats);
        let mut slots = self.done.slots.lock().unwrap_or_else(|e| e.into_inner());
        while slots.iter().any(|s| matches!(s, SlotState::InFlight)) {
            slots = self.done.cv.wait(slots).unwrap_or_else(|e| e.into_inner());
        }
        slots.iter_mut().for_each(|s| *s = SlotState::Idle);
        true
    }
}

/// io_method=io_uring: a ring (one per backend in PostgreSQL, created once and reused).
pub struct IoUringIo {
    ring: io_uring::IoUring,
    results: Vec<Option<i32>>,
    in_flight: usize,
    staged: usize,
    batch: bool,
}

impl IoUringIo {
    /// A ring for up to `max_ios` reads in flight. Err: the kernel refused io_uring (too old,
    /// disabled by `kernel.io_uring_disabled`, or blocked by a seccomp policy).
    pub fn new(max_ios: usize) -> io::Result<Self> {
        let entries = (max_ios.max(1) as u32).next_power_of_two();
        let ring = io_uring::IoUring::new(entries)
            .map_err(|e| io::Error::new(e.kind(), format!("io_uring_setup({entries}) refused by the kernel: {e}")))?;
        Ok(IoUringIo { ring, results: vec![None; max_ios.max(1)], in_flight: 0, staged: 0, batch: false })
    }

    /// Start a new stream of `max_ios` slots on this ring.
    pub fn reset(&mut self, max_ios: usize) {
        debug_assert_eq!(self.in_flight, 0);
        self.results.clear();
        self.results.resize(max_ios.max(1), None);
    }

    fn submit(&mut self, stats: &mut IoStats) -> io::Result<()> {
        if self.staged > 0 {
            self.ring.submit()?;
            stats.submits += 1;
            self.staged = 0;
        }
        Ok(())
    }

    fn reap(&mut self) {
        for cqe in self.ring.completion() {
            let slot = cqe.user_data() as usize;
            if let Some(r) = self.results.get_mut(slot) {
                *r = Some(cqe.result());
                self.in_flight -= 1;
            }
        }
    }
}

impl IoMethod for IoUringIo {
    fn name(&self) -> &'static str {
        "io_uring"
    }

    fn start(&mut self, file: &DataFile, slot: usize, op: &IoOp, _advice: bool, stats: &mut IoStats) -> io::Result<()> {
        // `op` lives in the stream's boxed IO slots until this read is waited for.
        let sqe = io_uring::opcode::Readv::new(io_uring::types::Fd(file.fd()), op.iov.as_ptr(), op.niov as u32)
            .offset(op.offset())
            .build()
            .user_data(slot as u64);
        self.results[slot] = None;
        loop {
            // SAFETY: the iovecs and the pages they describe stay valid until the completion
            // is reaped (the stream drains before freeing them).
            let pushed = unsafe { self.ring.submission().push(&sqe) }.is_ok();
            if pushed {
                break;
            }
            self.submit(stats)?;
        }
        self.staged += 1;
        self.in_flight += 1;
        stats.read_calls += 1;
        if !self.batch {
            self.submit(stats)?;
        }
        Ok(())
    }

    fn enter_batch(&mut self) {
        self.batch = true;
    }

    fn exit_batch(&mut self, stats: &mut IoStats) -> io::Result<()> {
        self.batch = false;
        self.submit(stats)
    }

    fn wait(&mut self, file: &DataFile, slot: usize, op: &IoOp, stats: &mut IoStats) -> io::Result<bool> {
        self.submit(stats).map_err(|e| file.context("submitting", op.blocknum, e))?;
        self.reap();
        let mut waited = false;
        while self.results[slot].is_none() {
            waited = true;
            match self.ring.submit_and_wait(1) {
                Ok(_) => stats.submits += 1,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(file.context("waiting for", op.blocknum, e)),
            }
            self.reap();
        }
        let res = self.results[slot].take().unwrap_or(0);
        if res < 0 {
            return Err(file.context("reading (io_uring)", op.blocknum, io::Error::from_raw_os_error(-res)));
        }
        // A short read: finish it synchronously, as PostgreSQL retries the remainder.
        if (res as usize) < op.len() {
            let calls = preadv_full(file.fd(), op, res as usize).map_err(|e| file.context("reading", op.blocknum, e))?;
            stats.read_calls += calls;
        }
        stats.bytes_read += op.len() as u64;
        Ok(waited)
    }

    fn drain(&mut self) -> bool {
        let mut stats = IoStats::default();
        if self.submit(&mut stats).is_err() {
            return false;
        }
        while self.in_flight > 0 {
            match self.ring.submit_and_wait(1) {
                Ok(_) => {}
                Err(e) if matches!(e.raw_os_error(), Some(libc::EINTR | libc::EAGAIN | libc::EBUSY)) => {}
                Err(_) => return false,
            }
            self.reap();
        }
        self.results.iter_mut().for_each(|r| *r = None);
        true
    }
}

/// `BlockRangeReadStreamPrivate` with `block_range_read_stream_cb`.
#[derive(Clone, Copy, Debug)]
pub struct BlockRange {
    /// Next block to return.
    pub current_blocknum: BlockNumber,
    /// End, exclusive.
    pub last_exclusive: BlockNumber,
}

impl BlockRange {
    /// `block_range_read_stream_cb`.
    #[inline]
    pub fn next_block(&mut self) -> BlockNumber {
        if self.current_blocknum < self.last_exclusive {
            self.current_blocknum += 1;
            self.current_blocknum - 1
        } else {
            INVALID_BLOCK_NUMBER
        }
    }
}

/// A read stream over a block range of one file.
pub struct ReadStream<'a, M: IoMethod> {
    file: &'a DataFile,
    io: &'a mut M,
    max_ios: usize,
    io_combine_limit: usize,
    max_pinned_buffers: usize,
    queue_size: usize,
    pinned_buffers: usize,
    readahead_distance: usize,
    combine_distance: usize,
    distance_decay_holdoff: usize,
    ended: bool,
    advice_enabled: bool,
    batch_mode: bool,
    buffered_blocknum: BlockNumber,
    callback: BlockRange,
    seq_blocknum: BlockNumber,
    seq_until_processed: BlockNumber,
    pending_read_blocknum: BlockNumber,
    pending_read_nblocks: usize,
    ios: Box<[IoOp]>,
    io_buffer_index: Box<[usize]>,
    ios_in_progress: usize,
    oldest_io_index: usize,
    next_io_index: usize,
    oldest_buffer_index: usize,
    next_buffer_index: usize,
    /// Block held by each queue page.
    blocks: Box<[BlockNumber]>,
    pages: &'a mut AlignedPages,
    /// What the stream's reads cost.
    pub stats: IoStats,
}

impl<'a, M: IoMethod> ReadStream<'a, M> {
    /// `read_stream_begin_relation(flags, BAS_BULKREAD, rel, MAIN_FORKNUM,
    /// block_range_read_stream_cb, range, 0)`, its queue's pages in `pages` (the buffers the
    /// stream pins: allocated once, as shared buffers are, at least
    /// [`StreamConfig::queue_size`] of them).
    pub fn begin(cfg: &StreamConfig, file: &'a DataFile, io: &'a mut M, range: BlockRange, pages: &'a mut AlignedPages) -> io::Result<Self> {
        let io_combine_limit = cfg.io_combine_limit.max(1);
        let max_pinned_buffers = cfg.max_pinned_buffers();
        let queue_size = cfg.queue_size();
        if pages.len() < queue_size {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a read stream of {max_pinned_buffers} pinned buffers needs {queue_size} pages, given {}", pages.len()),
            ));
        }
        // max_ios 0 disables AIO and advice; it still needs one IO slot.
        let advice_enabled = io.is_sync() && !file.direct() && cfg.max_ios > 0;
        let max_ios = cfg.max_ios.max(1);
        let initial = if cfg.full { max_pinned_buffers.min(io_combine_limit) } else { 1 };
        Ok(ReadStream {
            file,
            io,
            max_ios,
            io_combine_limit,
            max_pinned_buffers,
            queue_size,
            pinned_buffers: 0,
            readahead_distance: initial,
            combine_distance: initial,
            distance_decay_holdoff: 0,
            ended: false,
            advice_enabled,
            batch_mode: cfg.batching,
            buffered_blocknum: INVALID_BLOCK_NUMBER,
            callback: range,
            seq_blocknum: INVALID_BLOCK_NUMBER,
            seq_until_processed: INVALID_BLOCK_NUMBER,
            pending_read_blocknum: INVALID_BLOCK_NUMBER,
            pending_read_nblocks: 0,
            ios: vec![IoOp::EMPTY; max_ios].into_boxed_slice(),
            io_buffer_index: vec![usize::MAX; max_ios].into_boxed_slice(),
            ios_in_progress: 0,
            oldest_io_index: 0,
            next_io_index: 0,
            oldest_buffer_index: 0,
            next_buffer_index: 0,
            blocks: vec![INVALID_BLOCK_NUMBER; queue_size].into_boxed_slice(),
            pages,
            stats: IoStats { max_distance: initial as u64, ..IoStats::default() },
        })
    }

    /// `max_pinned_buffers`.
    pub fn max_pinned_buffers(&self) -> usize {
        self.max_pinned_buffers
    }

    fn get_block(&mut self) -> BlockNumber {
        if self.buffered_blocknum != INVALID_BLOCK_NUMBER {
            std::mem::replace(&mut self.buffered_blocknum, INVALID_BLOCK_NUMBER)
        } else {
            self.callback.next_block()
        }
    }

    /// `read_stream_start_pending_read`: every block needs IO here, so the read always
    /// starts whole.
    fn start_pending_read(&mut self) -> io::Result<()> {
        let nblocks = self.pending_read_nblocks;
        debug_assert!(nblocks > 0 && nblocks <= self.io_combine_limit);
        debug_assert!(self.pinned_buffers + nblocks <= self.max_pinned_buffers);
        let blocknum = self.pending_read_blocknum;
        let mut advice = false;
        if self.advice_enabled {
            if blocknum == self.seq_blocknum {
                // Sequential: advise until the preadv() calls catch up with the first advice.
                advice = self.seq_until_processed != INVALID_BLOCK_NUMBER;
            } else {
                // A jump: a new potential sequential region; skip advice if the preadv()
                // follows at once (nothing pinned).
                self.seq_until_processed = blocknum;
                advice = self.pinned_buffers > 0;
            }
        }
        let buffer_index = self.next_buffer_index;
        let first = nblocks.min(self.queue_size - buffer_index);
        let mut op = IoOp { blocknum, nblocks, iov: IoOp::EMPTY.iov, niov: 1 };
        op.iov[0] = libc::iovec { iov_base: self.pages.page_ptr(buffer_index).cast(), iov_len: first * BLCKSZ };
        if first < nblocks {
            op.iov[1] = libc::iovec { iov_base: self.pages.page_ptr(0).cast(), iov_len: (nblocks - first) * BLCKSZ };
            op.niov = 2;
        }
        for i in 0..nblocks {
            self.blocks[(buffer_index + i) % self.queue_size] = blocknum + i as BlockNumber;
        }
        let slot = self.next_io_index;
        self.ios[slot] = op;
        self.io_buffer_index[slot] = buffer_index;
        let op_ref = &self.ios[slot];
        self.io.start(self.file, slot, op_ref, advice, &mut self.stats)?;
        self.next_io_index = (slot + 1) % self.max_ios;
        self.ios_in_progress += 1;
        self.stats.ios += 1;
        self.stats.max_ios_in_flight = self.stats.max_ios_in_flight.max(self.ios_in_progress as u64);
        self.seq_blocknum = blocknum + nblocks as BlockNumber;
        self.pinned_buffers += nblocks;
        self.next_buffer_index = (buffer_index + nblocks) % self.queue_size;
        self.pending_read_blocknum += nblocks as BlockNumber;
        self.pending_read_nblocks = 0;
        Ok(())
    }

    /// `read_stream_look_ahead`.
    fn look_ahead(&mut self) -> io::Result<()> {
        if self.batch_mode {
            self.io.enter_batch();
        }
        let r = self.look_ahead_inner();
        let exit = if self.batch_mode { self.io.exit_batch(&mut self.stats) } else { Ok(()) };
        r.and(exit.map_err(|e| io::Error::new(e.kind(), format!("{}: submitting reads: {e}", self.file.path().display()))))
    }

    fn look_ahead_inner(&mut self) -> io::Result<()> {
        while !self.ended
            && self.ios_in_progress < self.max_ios
            && self.pinned_buffers + self.pending_read_nblocks < self.readahead_distance
        {
            if self.pending_read_nblocks >= self.combine_distance {
                self.start_pending_read()?;
                continue;
            }
            let blocknum = self.get_block();
            if blocknum == INVALID_BLOCK_NUMBER {
                self.ended = true;
                break;
            }
            if self.pending_read_nblocks > 0
                && self.pending_read_blocknum + self.pending_read_nblocks as BlockNumber == blocknum
            {
                self.pending_read_nblocks += 1;
                continue;
            }
            if self.pending_read_nblocks > 0 {
                self.start_pending_read()?;
                if self.ios_in_progress == self.max_ios {
                    // Hit the IO limit: rewind and stop here.
                    self.buffered_blocknum = blocknum;
                    return Ok(());
                }
            }
            self.pending_read_blocknum = blocknum;
            self.pending_read_nblocks = 1;
        }
        // Start the pending read now if it reached the combine distance, nothing is pinned
        // to give the consumer, or the stream ended; otherwise let it grow.
        if self.pending_read_nblocks > 0
            && (self.pending_read_nblocks >= self.combine_distance
                || (self.pending_read_nblocks >= self.readahead_distance && self.pinned_buffers == 0)
                || self.ended)
            && self.ios_in_progress < self.max_ios
        {
            self.start_pending_read()?;
        }
        Ok(())
    }

    /// `read_stream_next_buffer`: the next block and its page, or None at the end. The page
    /// stays valid until the next call.
    #[inline(never)]
    pub fn next_buffer(&mut self) -> io::Result<Option<(BlockNumber, &[u8; BLCKSZ])>> {
        if self.pinned_buffers == 0 {
            if self.ended && self.pending_read_nblocks == 0 {
                return Ok(None);
            }
            self.look_ahead()?;
            if self.pinned_buffers == 0 {
                return Ok(None);
            }
        }
        let oldest = self.oldest_buffer_index;
        if self.ios_in_progress > 0 && self.io_buffer_index[self.oldest_io_index] == oldest {
            let slot = self.oldest_io_index;
            let op = self.ios[slot];
            let waited = self.io.wait(self.file, slot, &op, &mut self.stats)?;
            self.ios_in_progress -= 1;
            self.io_buffer_index[slot] = usize::MAX;
            self.oldest_io_index = (slot + 1) % self.max_ios;
            if waited {
                self.stats.waits += 1;
                self.readahead_distance = (self.readahead_distance * 2).min(self.max_pinned_buffers);
                self.stats.max_distance = self.stats.max_distance.max(self.readahead_distance as u64);
            }
            self.combine_distance = (self.combine_distance * 2).min(self.io_combine_limit);
            self.distance_decay_holdoff = self.max_pinned_buffers;
            if self.advice_enabled && op.blocknum == self.seq_until_processed {
                self.seq_until_processed = INVALID_BLOCK_NUMBER;
            }
        } else if self.ios_in_progress == 0 {
            // A hit (never here: see the module doc): the holdoff first, then decay.
            if self.distance_decay_holdoff > 0 {
                self.distance_decay_holdoff -= 1;
            } else if self.readahead_distance > 1 {
                self.readahead_distance -= 1;
            }
        }
        self.pinned_buffers -= 1;
        self.oldest_buffer_index = (oldest + 1) % self.queue_size;
        self.look_ahead()?;
        let blk = self.blocks[oldest];
        // SAFETY: the page's read completed above (or earlier), and no read targets it until
        // the next call: at most max_pinned_buffers of the queue_size pages are pinned.
        let page = unsafe { &*(self.pages.page_ptr(oldest) as *const [u8; BLCKSZ]) };
        Ok(Some((blk, page)))
    }

    /// Reads in progress.
    pub fn ios_in_progress(&self) -> usize {
        self.ios_in_progress
    }
}

impl<M: IoMethod> Drop for ReadStream<'_, M> {
    /// `read_stream_end`: no read may still target the pages once they are freed.
    fn drop(&mut self) {
        if self.ios_in_progress > 0 && !self.io.drain() {
            // Reads may still land in these pages: leak them rather than let them be freed.
            let n = self.pages.len();
            std::mem::forget(std::mem::replace(self.pages, AlignedPages::new(n)));
        }
    }
}

/// How many of `path`'s pages are in the page cache (`mincore` over a fresh mapping, which
/// faults nothing in): (resident, total).
pub fn resident_pages(path: &Path) -> io::Result<(u64, u64)> {
    let ctx = |e: io::Error| io::Error::new(e.kind(), format!("{}: checking page-cache residency: {e}", path.display()));
    let f = File::open(path).map_err(ctx)?;
    let len = f.metadata().map_err(ctx)?.len() as usize;
    if len == 0 {
        return Ok((0, 0));
    }
    // SAFETY: sysconf has no preconditions.
    let os_page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(1) as usize;
    let npages = len.div_ceil(os_page);
    // SAFETY: a private read-only mapping of an open file, unmapped below; never touched.
    let addr = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_SHARED, f.as_raw_fd(), 0) };
    if addr == libc::MAP_FAILED {
        return Err(ctx(io::Error::last_os_error()));
    }
    let mut vec = vec![0u8; npages];
    // SAFETY: `vec` has one byte per OS page of the mapping.
    let r = unsafe { libc::mincore(addr, len, vec.as_mut_ptr()) };
    let err = io::Error::last_os_error();
    // SAFETY: the mapping made above.
    unsafe { libc::munmap(addr, len) };
    if r != 0 {
        return Err(ctx(err));
    }
    Ok((vec.iter().filter(|b| *b & 1 != 0).count() as u64, npages as u64))
}

/// Drop `path` from the page cache and check that it worked: fsync (DONTNEED skips dirty
/// pages), `posix_fadvise(POSIX_FADV_DONTNEED)`, then `mincore`. Pages still resident (mapped
/// or locked by someone) make this an error that names the file.
pub fn evict(path: &Path) -> io::Result<()> {
    let ctx = |e: io::Error| io::Error::new(e.kind(), format!("{}: evicting from the page cache: {e}", path.display()));
    let f = File::open(path).map_err(ctx)?;
    f.sync_all().map_err(ctx)?;
    if under_valgrind() {
        // Valgrind reads the head of every file the process maps (to look for ELF), so the
        // mincore check would always find those pages. Instruction counts do not depend on
        // the page cache: evict, unchecked.
        // SAFETY: plain syscall on an open fd.
        let r = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        return if r == 0 { Ok(()) } else { Err(ctx(io::Error::from_raw_os_error(r))) };
    }
    for _attempt in 0..3 {
        // SAFETY: plain syscall on an open fd.
        let r = unsafe { libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        if r != 0 {
            return Err(ctx(io::Error::from_raw_os_error(r)));
        }
        if resident_pages(path)?.0 == 0 {
            return Ok(());
        }
    }
    let (resident, total) = resident_pages(path)?;
    if resident == 0 {
        return Ok(());
    }
    Err(io::Error::other(format!(
        "{}: {resident} of {total} pages still in the page cache after fsync + POSIX_FADV_DONTNEED \
         (mapped or locked by a process?): a cold-cache run is impossible",
        path.display()
    )))
}

/// Whether this process runs under valgrind (its preload objects are mapped).
pub fn under_valgrind() -> bool {
    static V: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *V.get_or_init(|| std::fs::read_to_string("/proc/self/maps").map(|m| m.contains("vgpreload")).unwrap_or(false))
}

/// Read `path` whole through the page cache and check every page is resident. A host that
/// reclaims page cache proactively (these KVM guests run DAMON's `pageout` on unmapped pages
/// idle for a minute, and it clears a page's accessed bit before reclaiming it) can take a page
/// between the read and the check: read again, up to [`PRIME_ATTEMPTS`] times, before calling
/// the warm state impossible.
pub fn prime(path: &Path) -> io::Result<()> {
    let ctx = |e: io::Error| io::Error::new(e.kind(), format!("{}: loading into the page cache: {e}", path.display()));
    let mut last = (0, 0);
    for attempt in 0..PRIME_ATTEMPTS {
        if attempt > 0 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let mut f = File::open(path).map_err(ctx)?;
        io::copy(&mut f, &mut io::sink()).map_err(ctx)?;
        last = resident_pages(path)?;
        if last.0 == last.1 {
            return Ok(());
        }
    }
    let (resident, total) = last;
    Err(io::Error::other(format!(
        "{}: only {resident} of {total} pages stay in the page cache after {PRIME_ATTEMPTS} reads (memory pressure?): a \
         warm-cache run is impossible",
        path.display()
    )))
}

/// Reads [`prime`] tries before it gives up.
pub const PRIME_ATTEMPTS: usize = 5;
