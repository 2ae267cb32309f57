//! # Study `read-stream`: contrib/bloom's `blgetbitmap`, one synchronous read a page against a read stream
//!
//! **Seed 002** (commit 4c910f3bbe, "bloom: Optimize bitmap scan path with streaming read",
//! reference §4.5): `blgetbitmap` read every index page with `ReadBufferExtended` (one
//! synchronous 8 KiB read per miss); the patch reads them through a read stream
//! (`READ_STREAM_FULL | READ_STREAM_USE_BATCHING`, `block_range_read_stream_cb` over
//! [1, npages)). Reported: about **3x** runtime with io_uring (author) to **close to 7x**
//! (committer), on indexes of up to 10M rows, and lower IO counts with io_method=worker
//! (3 workers). The claim is about what the loop waits on, not its instructions.
//!
//! The index ([`crate::pg::bloom`]): contrib/bloom's layout with its defaults over the
//! documentation's `tbloom` table (six int4 columns, 80-bit signatures, 2 bits a column):
//! 16-byte tuples, 510 a page; at the seed's 10M rows 19,608 data pages + the metapage =
//! 153.2 MiB. It is written once under the data directory (`$HOTLOOPS_DATA_DIR`, default
//! `target/hotloops-data`) and re-created when its header does not match.
//!
//! The loop, per block from `BLOOM_HEAD_BLKNO`: get the page, skip it if new or deleted,
//! test every tuple's signature word by word against the query's
//! ([`hl_read_stream_check_page`], the kernel in every variant's asm snapshot), and add
//! each match to the bitmap with `tbm_add_tuples(tbm, &heapPtr, 1, true)`.
//!
//! Variants, named after PostgreSQL's `io_method` (the stream's model and its settings are in
//! [`crate::pg::read_stream`]: io_combine_limit 16, effective_io_concurrency 16, full-speed
//! start at 16 blocks, at most 128 buffers pinned):
//! - `read-stream/sync-per-page` (baseline, before the patch): `pread` of one 8 KiB block,
//!   into one buffer, per page.
//! - `read-stream/stream-sync`: the stream with io_method=sync: reads combined up to 128 KiB,
//!   each done by `preadv` when the scan reaches it; advice (`POSIX_FADV_WILLNEED`) as
//!   read_stream.c gives it, which for one sequential range is none (see the module).
//! - `read-stream/stream-worker`: the stream with io_method=worker: 3 I/O worker threads run
//!   the reads ahead of the scan.
//! - `read-stream/stream-io-uring`: the stream with io_method=io_uring (the `io-uring`
//!   crate): reads submitted in batches on a ring. Where the kernel refuses io_uring, the
//!   library call fails with the kernel's reason; the [`Case`] (whose `run` cannot fail)
//!   prints that reason once and runs the stream-sync scan in its place, and its
//!   `io_uring` metric reads 0.
//!
//! Cases: the same scan with the page cache in three states.
//! - `warm`: buffered reads, the whole file in the page cache (checked with `mincore` before
//!   every run, loaded if not).
//! - `cold-buffered`: buffered reads after evicting the file (fsync, `POSIX_FADV_DONTNEED`,
//!   then `mincore` must show no page left; otherwise the run stops with an error). The
//!   kernel's own read-ahead is in play.
//! - `cold-direct`: `O_DIRECT` reads into 4 KiB-aligned buffers (PostgreSQL's
//!   `debug_io_direct=data`), evicted first as well: no kernel read-ahead can hide the
//!   difference, and read-stream advice is off as in PostgreSQL. Left out, with a message,
//!   where the file system refuses O_DIRECT.
//!
//! Every run opens the file anew and closes it, and every stream waits for its reads before
//! it returns: readahead state and access-pattern advice live in the open file description
//! and end with it, no read started by one variant lands after it, and the page-cache state
//! each run starts from is set and checked by the case, not inherited.
//!
//! The generic wall clock times `run`, page-cache preparation included: for `cold-direct` that
//! is cheap (the file is not cached: an fsync, one fadvise, one mincore), but for
//! `cold-buffered` it drops a fully cached file, which costs milliseconds, comparable to the
//! scan, and pulls that case's wall-clock ratios towards 1. The study's own figures
//! ([`Case::extra_metrics`]) time the scan alone, three cold or warm runs per variant, and
//! report the median scan time, pages per second, the speedup over sync-per-page, read
//! requests, bytes read, advice calls, waits, the most reads in flight, and the device's
//! completed reads and bytes over the scan (from `/sys/dev/block/<dev>/stat`, system-wide:
//! other processes' IO on that device counts too). `examples/read_stream.rs` prints the same
//! side by side at any size (`cargo run --release --example read_stream -- full`).
//!
//! The index itself was checked against PostgreSQL 15.18's contrib/bloom on a 2,000-row
//! table filled with [`crate::pg::bloom::column_value`]'s values: every data page identical
//! byte for byte but for `pd_lsn`, the metapage but for `pd_lsn` and our stamp.

use crate::pg::bloom::{BLOOM_DELETED, BLOOM_HEAD_BLKNO, BLOOM_META, BLOOM_SPECIAL_OFFSET, BloomIndex, BloomSpec, BloomState, Origin, TBLOOM_ROWS};
use crate::pg::page::{BLCKSZ, SIZE_OF_PAGE_HEADER};
use crate::pg::read_stream::{
    AlignedPages, BlockRange, DEFAULT_IO_WORKERS, DataFile, IoStats, IoUringIo, ReadStream, StreamConfig, SyncIo, WorkerIo, WorkerPool,
    evict, prime, read_block, resident_pages,
};
use crate::pg::sink::TidSink;
use crate::pg::tidbitmap::TidBitmap;
use crate::pg::{BlockNumber, ItemPointer};
use crate::study::{Case, CaseSpec, Kernel, Size, Study, StudyInfo, Variant};
use anyhow::{Context, Result};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The registry entry.
pub static STUDY: ReadStreamStudy = ReadStreamStudy;

/// Study `read-stream`.
pub struct ReadStreamStudy;

const HELPERS: &[&str] = &["hl_read_stream_check_page"];

static INFO: StudyInfo = StudyInfo {
    name: "read-stream",
    seed: "seed 002 (commit 4c910f3bbe, bloom: Optimize bitmap scan path with streaming read)",
    claim: "blgetbitmap reading each index page with a synchronous ReadBuffer waits on one 8 KiB \
            read at a time; a read stream (full-speed start, 128 KiB combined reads, look-ahead) \
            makes a bloom bitmap scan several times faster",
    seed_numbers: "about 3x runtime with io_uring (author), close to 7x (committer), indexes of up to \
                   10M rows; lower IO stats with io_method=worker (3 workers)",
    feature: "read-stream",
    feature_on: cfg!(feature = "read-stream"),
    baseline: "read-stream/sync-per-page",
    // io_method's default is worker, so that is what the patch runs out of the box.
    patched: "read-stream/stream-worker",
    unit: "page",
    c_kernels: "",
    heap_history_matters: false,
    variants: &[
        Variant::new(
            "read-stream/sync-per-page",
            "ReadBufferExtended per block: one synchronous 8 KiB pread a page (before the patch)",
            "hotloops_read_stream_sync_per_page",
            &StreamSpec { method: Method::SyncPerPage, kernel: StreamFn::PerPage(hotloops_read_stream_sync_per_page) },
        )
        .helpers(HELPERS),
        Variant::new(
            "read-stream/stream-sync",
            "read stream, io_method=sync: 128 KiB preadv when the scan reaches it, advice as read_stream.c gives it",
            "hotloops_read_stream_stream_sync",
            &StreamSpec { method: Method::StreamSync, kernel: StreamFn::Sync(hotloops_read_stream_stream_sync) },
        )
        .helpers(HELPERS),
        Variant::new(
            "read-stream/stream-worker",
            "read stream, io_method=worker: 3 I/O worker threads read ahead (PostgreSQL's default io_method)",
            "hotloops_read_stream_stream_worker",
            &StreamSpec { method: Method::StreamWorker, kernel: StreamFn::Worker(hotloops_read_stream_stream_worker) },
        )
        .helpers(HELPERS),
        Variant::new(
            "read-stream/stream-io-uring",
            "read stream, io_method=io_uring: batched READV submissions, reads in flight up to the pin cap (8 x 128 KiB)",
            "hotloops_read_stream_stream_io_uring",
            &StreamSpec { method: Method::StreamIoUring, kernel: StreamFn::IoUring(hotloops_read_stream_stream_io_uring) },
        )
        .helpers(HELPERS),
    ],
    cases: &[
        CaseSpec { id: "warm", summary: "buffered reads, the whole index file in the page cache" },
        CaseSpec { id: "cold-buffered", summary: "buffered reads, the file evicted before each run (kernel read-ahead in play)" },
        CaseSpec { id: "cold-direct", summary: "O_DIRECT reads, the file evicted before each run (left out where the file system refuses O_DIRECT)" },
    ],
};

/// How blocks are read: PostgreSQL's `io_method`, or the synchronous read before the patch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `read-stream/sync-per-page`.
    SyncPerPage,
    /// `read-stream/stream-sync`.
    StreamSync,
    /// `read-stream/stream-worker`.
    StreamWorker,
    /// `read-stream/stream-io-uring`.
    StreamIoUring,
}

/// A read-stream kernel, by how it reads.
pub enum StreamFn {
    /// One `pread` a page into one buffer.
    PerPage(fn(&BloomScan, &DataFile, &AlignedPages, &mut dyn TidSink, &mut IoStats) -> io::Result<i64>),
    /// The stream, io_method=sync.
    Sync(fn(&BloomScan, &DataFile, &StreamConfig, &mut AlignedPages, &mut dyn TidSink, &mut IoStats) -> io::Result<i64>),
    /// The stream, io_method=worker.
    Worker(fn(&BloomScan, &DataFile, &StreamConfig, &WorkerPool, &mut AlignedPages, &mut dyn TidSink, &mut IoStats) -> io::Result<i64>),
    /// The stream, io_method=io_uring.
    IoUring(fn(&BloomScan, &DataFile, &StreamConfig, &mut IoUringIo, &mut AlignedPages, &mut dyn TidSink, &mut IoStats) -> io::Result<i64>),
}

/// A read-stream row's spec: its io method and its kernel.
pub struct StreamSpec {
    /// The io method.
    pub method: Method,
    /// The kernel that reads that way.
    pub kernel: StreamFn,
}

impl Kernel for StreamSpec {
    fn entry(&self) -> usize {
        match self.kernel {
            StreamFn::PerPage(f) => f as usize,
            StreamFn::Sync(f) => f as usize,
            StreamFn::Worker(f) => f as usize,
            StreamFn::IoUring(f) => f as usize,
        }
    }
}

impl Method {
    /// Every io method.
    pub const ALL: [Method; 4] = [Method::SyncPerPage, Method::StreamSync, Method::StreamWorker, Method::StreamIoUring];

    /// The row that reads this way.
    pub fn row(self) -> Result<&'static Variant> {
        INFO.variants
            .iter()
            .find(|v| v.spec::<StreamSpec>().is_ok_and(|s| s.method == self))
            .with_context(|| format!("read-stream has no variant for {self:?}"))
    }

    /// Its variant id.
    pub fn id(self) -> &'static str {
        self.row().map_or("read-stream/?", |v| v.id)
    }

    /// The io method of row `v`.
    pub fn of(v: &'static Variant) -> Result<Method> {
        Ok(v.spec::<StreamSpec>()?.method)
    }
}

/// The page cache's state when a scan starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cache {
    /// Buffered reads, file resident.
    Warm,
    /// Buffered reads, file evicted.
    ColdBuffered,
    /// `O_DIRECT` reads, file evicted.
    ColdDirect,
}

impl Cache {
    /// All.
    pub const ALL: [Cache; 3] = [Cache::Warm, Cache::ColdBuffered, Cache::ColdDirect];

    /// Case name.
    pub fn name(self) -> &'static str {
        match self {
            Cache::Warm => "warm",
            Cache::ColdBuffered => "cold-buffered",
            Cache::ColdDirect => "cold-direct",
        }
    }

    /// Reads with `O_DIRECT`.
    pub fn direct(self) -> bool {
        self == Cache::ColdDirect
    }
}

/// A bitmap scan of a bloom index: the index and the query signature (`so->sign`).
#[derive(Clone, Debug)]
pub struct BloomScan {
    /// The index.
    pub index: BloomIndex,
    /// The scan signature, `bloomLength` words.
    pub sign: Vec<u16>,
}

impl BloomScan {
    /// The study's query (`i2 = a AND i5 = b`) over `index`.
    pub fn new(index: BloomIndex) -> Self {
        let sign = index.spec.query_sign();
        BloomScan { index, sign }
    }
}

/// What lives across scans, as in a backend and its server: the stream settings, the I/O
/// workers, the io_uring.
pub struct Backend {
    cfg: StreamConfig,
    workers: Option<WorkerPool>,
    uring: Option<std::result::Result<IoUringIo, String>>,
    /// The buffer sync-per-page reads into (a ring of one, as far as this loop is concerned).
    page: AlignedPages,
    /// The pages a stream pins (its share of shared buffers), allocated once.
    buffers: AlignedPages,
}

impl Default for Backend {
    fn default() -> Self {
        Backend::new(StreamConfig::default())
    }
}

impl Backend {
    /// A backend with `cfg`; workers and ring start on first use.
    pub fn new(cfg: StreamConfig) -> Self {
        Backend { cfg, workers: None, uring: None, page: AlignedPages::new(1), buffers: AlignedPages::new(cfg.queue_size()) }
    }

    /// Stream settings.
    pub fn cfg(&self) -> &StreamConfig {
        &self.cfg
    }

    fn workers(&mut self) -> io::Result<&WorkerPool> {
        if self.workers.is_none() {
            self.workers = Some(WorkerPool::new(DEFAULT_IO_WORKERS)?);
        }
        Ok(self.workers.as_ref().expect("just set"))
    }

    /// The ring, or why the kernel refused one.
    pub fn io_uring(&mut self) -> std::result::Result<&mut IoUringIo, String> {
        if self.uring.is_none() {
            self.uring = Some(IoUringIo::new(self.cfg.max_ios).map_err(|e| e.to_string()));
        }
        match self.uring.as_mut().expect("just set") {
            Ok(r) => Ok(r),
            Err(e) => Err(e.clone()),
        }
    }
}

/// Check a page before the kernel reads it: a bloom data page whose tuples fit. PostgreSQL
/// trusts its pages; a model reading a file from disk must not read past one.
fn check_page_header(scan: &BloomScan, file: &DataFile, blk: BlockNumber, page: &[u8; BLCKSZ]) -> io::Result<()> {
    let u16_at = |at: usize| u16::from_ne_bytes([page[at], page[at + 1]]);
    if u16_at(14) == 0 {
        return Ok(()); // PageIsNew: the kernel skips it
    }
    let special = u16_at(16) as usize;
    let (maxoff, flags) = if special == BLOOM_SPECIAL_OFFSET { (u16_at(special), u16_at(special + 2)) } else { (0, 0) };
    if special != BLOOM_SPECIAL_OFFSET || flags & BLOOM_META != 0 || maxoff as usize > scan.index.state.tuples_per_page() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: block {blk} is not a bloom data page (pd_special {special}, flags {flags:#x}, maxoff {maxoff})",
                file.path().display()
            ),
        ));
    }
    Ok(())
}

/// blgetbitmap's per-page work: skip new and deleted pages, test every tuple's signature word
/// by word against the scan's, add each match to the bitmap, one TID a call, recheck = true.
/// Returns the matches.
///
/// # Safety
/// `page` must point to `BLCKSZ` readable bytes of a bloom page whose special space is at
/// `pd_special` and whose `maxoff` tuples of `state.size_of_bloom_tuple` bytes fit after the
/// page header (what [`check_page_header`] checks); `sign` must point to
/// `state.bloom_length` words.
#[unsafe(no_mangle)]
#[inline(never)]
pub unsafe fn hl_read_stream_check_page(page: *const u8, state: &BloomState, sign: *const u16, tbm: &mut dyn TidSink) -> i64 {
    unsafe {
        // PageIsNew: pd_upper == 0; BloomPageGetOpaque: page + pd_special.
        if page.add(14).cast::<u16>().read() == 0 {
            return 0;
        }
        let opaque = page.add(page.add(16).cast::<u16>().read() as usize);
        if opaque.add(2).cast::<u16>().read() & BLOOM_DELETED != 0 {
            return 0;
        }
        let max_offset = opaque.cast::<u16>().read();
        let mut ntids = 0;
        for offset in 1..=max_offset as usize {
            // BloomPageGetTuple: PageGetContents(page) + sizeOfBloomTuple * (offset - 1).
            let itup = page.add(SIZE_OF_PAGE_HEADER + state.size_of_bloom_tuple * (offset - 1));
            let itup_sign = itup.add(crate::pg::bloom::BLOOMTUPLEHDRSZ).cast::<u16>();
            let mut res = true;
            for i in 0..state.bloom_length {
                let s = *sign.add(i);
                if *itup_sign.add(i) & s != s {
                    res = false;
                    break;
                }
            }
            if res {
                tbm.add_tuples(std::slice::from_ref(&*itup.cast::<ItemPointer>()), true);
                ntids += 1;
            }
        }
        ntids
    }
}

#[inline(always)]
fn scan_page(scan: &BloomScan, file: &DataFile, blk: BlockNumber, page: &[u8; BLCKSZ], tbm: &mut dyn TidSink) -> io::Result<i64> {
    check_page_header(scan, file, blk, page)?;
    // SAFETY: checked just above; the scan signature has bloomLength words.
    Ok(unsafe { hl_read_stream_check_page(page.as_ptr(), &scan.index.state, scan.sign.as_ptr(), tbm) })
}

/// `read-stream/sync-per-page`: blgetbitmap before the patch.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_read_stream_sync_per_page(
    scan: &BloomScan,
    file: &DataFile,
    buf: &AlignedPages,
    tbm: &mut dyn TidSink,
    stats: &mut IoStats,
) -> io::Result<i64> {
    let mut ntids = 0;
    for blkno in BLOOM_HEAD_BLKNO..file.nblocks() {
        // ReadBufferExtended(index, MAIN_FORKNUM, blkno, RBM_NORMAL, bas): a miss, one read.
        read_block(file, blkno, buf.page_ptr(0), stats)?;
        // SAFETY: the buffer holds one page, just read.
        let page = unsafe { &*(buf.page_ptr(0) as *const [u8; BLCKSZ]) };
        ntids += scan_page(scan, file, blkno, page, tbm)?;
    }
    Ok(ntids)
}

/// blgetbitmap after the patch, over a stream with io method `io`.
#[inline(always)]
fn blgetbitmap_stream<M: crate::pg::read_stream::IoMethod>(
    scan: &BloomScan,
    file: &DataFile,
    cfg: &StreamConfig,
    io: &mut M,
    buffers: &mut AlignedPages,
    tbm: &mut dyn TidSink,
    stats: &mut IoStats,
) -> io::Result<i64> {
    let range = BlockRange { current_blocknum: BLOOM_HEAD_BLKNO, last_exclusive: file.nblocks() };
    let mut stream = ReadStream::begin(cfg, file, io, range, buffers)?;
    let mut ntids = 0;
    let result = (|| {
        for _ in BLOOM_HEAD_BLKNO..file.nblocks() {
            let Some((blk, page)) = stream.next_buffer()? else {
                return Err(io::Error::other(format!("{}: read stream ended early", file.path().display())));
            };
            ntids += scan_page(scan, file, blk, page, tbm)?;
        }
        // Assert(read_stream_next_buffer(stream, NULL) == InvalidBuffer)
        if stream.next_buffer()?.is_some() {
            return Err(io::Error::other(format!("{}: read stream returned blocks past the end", file.path().display())));
        }
        Ok(ntids)
    })();
    stats.add(&stream.stats);
    result
}

/// `read-stream/stream-sync`.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_read_stream_stream_sync(
    scan: &BloomScan,
    file: &DataFile,
    cfg: &StreamConfig,
    buffers: &mut AlignedPages,
    tbm: &mut dyn TidSink,
    stats: &mut IoStats,
) -> io::Result<i64> {
    blgetbitmap_stream(scan, file, cfg, &mut SyncIo, buffers, tbm, stats)
}

/// `read-stream/stream-worker`.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_read_stream_stream_worker(
    scan: &BloomScan,
    file: &DataFile,
    cfg: &StreamConfig,
    pool: &WorkerPool,
    buffers: &mut AlignedPages,
    tbm: &mut dyn TidSink,
    stats: &mut IoStats,
) -> io::Result<i64> {
    let mut io = WorkerIo::new(pool, cfg.max_ios.max(1));
    blgetbitmap_stream(scan, file, cfg, &mut io, buffers, tbm, stats)
}

/// `read-stream/stream-io-uring`.
#[unsafe(no_mangle)]
#[inline(never)]
pub fn hotloops_read_stream_stream_io_uring(
    scan: &BloomScan,
    file: &DataFile,
    cfg: &StreamConfig,
    ring: &mut IoUringIo,
    buffers: &mut AlignedPages,
    tbm: &mut dyn TidSink,
    stats: &mut IoStats,
) -> io::Result<i64> {
    ring.reset(cfg.max_ios.max(1));
    blgetbitmap_stream(scan, file, cfg, ring, buffers, tbm, stats)
}

/// One bitmap scan with `method`, reading `file`. Errors name the file.
pub fn blgetbitmap(scan: &BloomScan, file: &DataFile, method: Method, backend: &mut Backend, tbm: &mut dyn TidSink, stats: &mut IoStats) -> Result<i64> {
    let cfg = backend.cfg;
    let n = match method.row()?.spec::<StreamSpec>()?.kernel {
        StreamFn::PerPage(f) => f(scan, file, &backend.page, tbm, stats)?,
        StreamFn::Sync(f) => f(scan, file, &cfg, &mut backend.buffers, tbm, stats)?,
        StreamFn::Worker(f) => {
            backend.workers().context("starting the I/O workers")?;
            let pool = backend.workers.as_ref().context("the I/O workers did not start")?;
            f(scan, file, &cfg, pool, &mut backend.buffers, tbm, stats)?
        }
        StreamFn::IoUring(f) => {
            backend.io_uring().map_err(anyhow::Error::msg).context("read-stream/stream-io-uring")?;
            let ring = backend.uring.as_mut().and_then(|r| r.as_mut().ok()).context("the io_uring ring was not created")?;
            f(scan, file, &cfg, ring, &mut backend.buffers, tbm, stats)?
        }
    };
    Ok(n)
}

/// One measured scan.
#[derive(Clone, Copy, Debug)]
pub struct ScanOutcome {
    /// Matches (`ntids`).
    pub ntids: i64,
    /// Scan time, page-cache preparation excluded.
    pub elapsed: Duration,
    /// What it read.
    pub stats: IoStats,
    /// The device's completed reads and bytes read over the scan (system-wide), if known.
    pub device: Option<(u64, u64)>,
}

/// Put the page cache in `cache`'s state for `path`, checked.
pub fn prepare_cache(path: &Path, cache: Cache) -> io::Result<()> {
    match cache {
        Cache::ColdBuffered | Cache::ColdDirect => evict(path),
        Cache::Warm => {
            let (resident, total) = resident_pages(path)?;
            if resident == total { Ok(()) } else { prime(path) }
        }
    }
}

/// Prepare the page cache, open the file afresh, scan it with `method`, close it.
pub fn scan_once(scan: &BloomScan, method: Method, cache: Cache, backend: &mut Backend, tbm: &mut dyn TidSink) -> Result<ScanOutcome> {
    prepare_cache(&scan.index.path, cache)?;
    let file = DataFile::open(&scan.index.path, cache.direct())?;
    let dev = DeviceStat::of(&scan.index.path);
    let before = dev.as_ref().and_then(|d| d.read());
    let mut stats = IoStats::default();
    let t = Instant::now();
    let ntids = blgetbitmap(scan, &file, method, backend, tbm, &mut stats)?;
    let elapsed = t.elapsed();
    let after = dev.as_ref().and_then(|d| d.read());
    let device = match (before, after) {
        (Some(b), Some(a)) => Some((a.0.saturating_sub(b.0), a.1.saturating_sub(b.1))),
        _ => None,
    };
    Ok(ScanOutcome { ntids, elapsed, stats, device })
}

/// A block device's read counters (`/sys/dev/block/MAJ:MIN/stat`).
#[derive(Debug)]
pub struct DeviceStat {
    /// The stat file.
    pub path: PathBuf,
}

impl DeviceStat {
    /// The device holding `file`, if it is a block device with counters.
    pub fn of(file: &Path) -> Option<Self> {
        use std::os::unix::fs::MetadataExt;
        let dev = std::fs::metadata(file).ok()?.dev();
        let (maj, min) = (libc::major(dev), libc::minor(dev));
        let path = PathBuf::from(format!("/sys/dev/block/{maj}:{min}/stat"));
        path.exists().then_some(DeviceStat { path })
    }

    /// (reads completed, bytes read).
    pub fn read(&self) -> Option<(u64, u64)> {
        let s = std::fs::read_to_string(&self.path).ok()?;
        let f: Vec<u64> = s.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        Some((*f.first()?, f.get(2)? * 512))
    }

    /// The device's name and `read_ahead_kb`, for descriptions.
    pub fn describe(&self) -> String {
        let dir = self.path.parent().unwrap_or(Path::new("/"));
        let name = std::fs::read_to_string(dir.join("uevent"))
            .ok()
            .and_then(|u| u.lines().find_map(|l| l.strip_prefix("DEVNAME=").map(str::to_string)))
            .unwrap_or_else(|| "?".into());
        // Partitions keep queue/ in their parent.
        let ra = std::fs::read_to_string(dir.join("queue/read_ahead_kb"))
            .or_else(|_| std::fs::read_to_string(dir.join("../queue/read_ahead_kb")))
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "?".into());
        format!("{name}, read_ahead_kb {ra}")
    }
}

/// The study's description and rows.
pub fn info() -> &'static StudyInfo {
    &INFO
}

/// The study's sizes: rows of the index.
pub fn rows_for(size: Size) -> u64 {
    match size {
        Size::Test => 50_000,
        Size::Quick => 1_000_000,
        Size::Full => TBLOOM_ROWS,
    }
}

/// One cache state of the scan.
pub struct ReadStreamCase {
    scan: BloomScan,
    cache: Cache,
    backend: Backend,
    origin: Origin,
    uring_refused: Option<String>,
    baseline_median: Option<Duration>,
    /// Reads of the last `run` of each variant, by id.
    pub last: std::collections::HashMap<&'static str, IoStats>,
}

impl ReadStreamCase {
    /// A case over `index` with the page cache in `cache`'s state.
    pub fn new(index: BloomIndex, origin: Origin, cache: Cache, backend: Backend) -> Self {
        ReadStreamCase { scan: BloomScan::new(index), cache, backend, origin, uring_refused: None, baseline_median: None, last: Default::default() }
    }

    /// The scan.
    pub fn scan(&self) -> &BloomScan {
        &self.scan
    }

    /// The method variant `v` runs here: io_uring falls back to stream-sync (said once) where
    /// the kernel refuses it.
    fn method(&mut self, v: &'static Variant) -> Result<Method> {
        let m = Method::of(v)?;
        if m == Method::StreamIoUring {
            if let Err(why) = self.backend.io_uring() {
                if self.uring_refused.is_none() {
                    crate::say!(
                        "read-stream: {why}; read-stream/stream-io-uring runs the stream-sync scan in its place \
                         in this process: its figures are not io_uring's"
                    );
                    self.uring_refused = Some(why);
                }
                return Ok(Method::StreamSync);
            }
        }
        Ok(m)
    }

    /// Scan once with variant `v` into a TIDBitmap at the default work_mem (4 MB), as
    /// `nodeBitmapIndexscan.c` creates it: outcome and the bitmap's digest.
    pub fn scan_variant(&mut self, v: &'static Variant) -> Result<(ScanOutcome, u64)> {
        let m = self.method(v)?;
        let mut tbm = TidBitmap::with_work_mem_kb(4096);
        let o = scan_once(&self.scan, m, self.cache, &mut self.backend, &mut tbm)?;
        Ok((o, tbm.digest()))
    }
}

impl Case for ReadStreamCase {
    fn describe(&self) -> String {
        let ix = &self.scan.index;
        let cfg = &self.backend.cfg;
        let dev = DeviceStat::of(&ix.path).map(|d| d.describe()).unwrap_or_else(|| "device counters unavailable".into());
        let cache = match self.cache {
            Cache::Warm => "buffered reads, file in the page cache",
            Cache::ColdBuffered => "buffered reads, file evicted before each run (fsync, POSIX_FADV_DONTNEED, checked with mincore)",
            Cache::ColdDirect => "O_DIRECT reads, file evicted before each run",
        };
        format!(
            "bitmap scan of a contrib/bloom index over {} rows of tbloom (6 int4 columns, 80-bit signatures, \
             2 bits a column; 510 tuples a page): {} data pages + metapage, {:.1} MiB at {} ({}); query i2 = a AND i5 = b \
             (4 signature bits); {cache}; device {dev}; stream: io_combine_limit {}, effective_io_concurrency {}, \
             max_pinned_buffers {}, READ_STREAM_FULL | USE_BATCHING, {} I/O workers",
            ix.spec.rows,
            ix.data_pages(),
            ix.len() as f64 / (1 << 20) as f64,
            ix.path.display(),
            match &self.origin {
                Origin::Reused => "reused".to_string(),
                Origin::Created => "created".to_string(),
                Origin::Recreated(why) => format!("re-created: {why}"),
            },
            cfg.io_combine_limit,
            cfg.max_ios,
            cfg.max_pinned_buffers(),
            DEFAULT_IO_WORKERS,
        )
    }

    fn items(&self) -> u64 {
        self.scan.index.data_pages() as u64
    }

    fn run(&mut self, v: &'static Variant) -> Result<u64> {
        let (o, d) = self.scan_variant(v)?;
        self.last.insert(v.id, o.stats);
        Ok(d ^ (o.ntids as u64).rotate_left(17))
    }

    fn seed_ratio(&self, v: &'static Variant) -> Option<f64> {
        // The author's 3x with io_uring on an uncached index (the committer saw ~7x).
        (Method::of(v).ok() == Some(Method::StreamIoUring) && self.cache != Cache::Warm).then_some(1.0 / 3.0)
    }

    fn extra_metrics(&mut self, v: &'static Variant) -> Result<Vec<(String, f64, String)>> {
        const RUNS: usize = 3;
        let mut outs = Vec::new();
        for _ in 0..RUNS {
            let (o, _) = self.scan_variant(v)?;
            outs.push(o);
        }
        outs.sort_by_key(|o| o.elapsed);
        let med = outs[RUNS / 2];
        if v.id == INFO.baseline {
            self.baseline_median = Some(med.elapsed);
        }
        let pages = self.items() as f64;
        let s = med.stats;
        let mut m = vec![
            ("scan-time".to_string(), med.elapsed.as_secs_f64() * 1e3, "ms".to_string()),
            ("scan-rate".to_string(), pages / med.elapsed.as_secs_f64(), "pages/s".to_string()),
            ("read-calls".to_string(), s.read_calls as f64, "calls".to_string()),
            ("bytes-read".to_string(), s.bytes_read as f64 / (1 << 20) as f64, "MiB".to_string()),
            ("advice-calls".to_string(), s.advice_calls as f64, "calls".to_string()),
            ("io-waits".to_string(), s.waits as f64, "count".to_string()),
            ("max-reads-in-flight".to_string(), s.max_ios_in_flight as f64, "count".to_string()),
        ];
        if let Some(b) = self.baseline_median {
            m.push(("speedup-vs-sync-per-page".to_string(), b.as_secs_f64() / med.elapsed.as_secs_f64(), "x".to_string()));
        }
        if let Some((reads, bytes)) = med.device {
            // System-wide counts (the block device's).
            m.push(("device-reads".to_string(), reads as f64, "count".to_string()));
            m.push(("device-bytes-read".to_string(), bytes as f64 / (1 << 20) as f64, "MiB".to_string()));
        }
        if Method::of(v).ok() == Some(Method::StreamIoUring) {
            m.push(("io-uring-used".to_string(), if self.uring_refused.is_some() { 0.0 } else { 1.0 }, "bool".to_string()));
        }
        Ok(m)
    }
}

/// The index for `size`, under the data directory.
pub fn index_for(size: Size) -> Result<(BloomIndex, Origin)> {
    let dir = crate::pg::bloom::default_data_dir();
    BloomIndex::open_or_create(&dir, &BloomSpec::rows(rows_for(size)))
        .with_context(|| format!("preparing the bloom index under {} (set HOTLOOPS_DATA_DIR to choose another directory)", dir.display()))
}

impl Study for ReadStreamStudy {
    fn info(&self) -> &'static StudyInfo {
        &INFO
    }

    fn build(&self, case: &'static CaseSpec, size: Size) -> Result<Box<dyn Case>> {
        let cache = Cache::ALL.into_iter().find(|c| c.name() == case.id).with_context(|| format!("read-stream has no case `{}`", case.id))?;
        let (index, origin) = index_for(size)?;
        if cache.direct() {
            if let Err(e) = DataFile::open(&index.path, true) {
                return Err(crate::study::CaseUnavailable(format!("this file system refuses O_DIRECT for {}: {e}", index.path.display())).into());
            }
        }
        Ok(Box::new(ReadStreamCase::new(index, origin, cache, Backend::default())))
    }
}

/// The pipeline: one cold, buffered bitmap scan with the variant this build selects
/// (`read-stream/stream-worker` with `--features read-stream`, else
/// `read-stream/sync-per-page`). Returns the matches.
pub fn pipeline(scan: &BloomScan, backend: &mut Backend, tbm: &mut dyn TidSink) -> Result<i64> {
    let m = Method::of(INFO.pipeline_variant())?;
    Ok(scan_once(scan, m, Cache::ColdBuffered, backend, tbm)?.ntids)
}
