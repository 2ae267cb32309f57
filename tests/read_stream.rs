//! Study `read-stream`: every io method returns the synchronous scan's TIDs, bad files are
//! clear errors, mismatched files are re-created, and no run leaves page-cache state behind.

use hotloops::pg::ItemPointer;
use hotloops::pg::bloom::{
    BLOOM_DELETED, BLOOM_SPECIAL_OFFSET, BloomIndex, BloomSpec, BloomState, OpenError, Origin, bloom_init_page, bloom_page_add_item,
    expected_matches,
};
use hotloops::pg::page::BLCKSZ;
use hotloops::pg::read_stream::{DataFile, StreamConfig, evict, resident_pages};
use hotloops::pg::sink::TidSink;
use hotloops::study::read_stream::{
    Backend, BloomScan, Cache, Method, ReadStreamCase, hl_read_stream_check_page, pipeline, scan_once,
};
use hotloops::study::{Case, Size, Study};
use std::fs;
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Collects every call, as `tbm_add_tuples` receives it.
#[derive(Default)]
struct Calls {
    tids: Vec<ItemPointer>,
    calls: u64,
    all_recheck: bool,
    max_per_call: usize,
}

impl TidSink for Calls {
    fn add_tuples(&mut self, tids: &[ItemPointer], recheck: bool) {
        if self.calls == 0 {
            self.all_recheck = true;
        }
        self.calls += 1;
        self.all_recheck &= recheck;
        self.max_per_call = self.max_per_call.max(tids.len());
        self.tids.extend_from_slice(tids);
    }
}

fn tmpdir() -> tempfile::TempDir {
    // Under target/, not /tmp: /tmp may be a tmpfs, which refuses O_DIRECT.
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir")
}

fn index(dir: &Path, rows: u64) -> BloomIndex {
    BloomIndex::open_or_create(dir, &BloomSpec::rows(rows)).expect("index").0
}

/// The caches this file system allows (O_DIRECT may be refused).
fn caches(ix: &BloomIndex) -> Vec<Cache> {
    Cache::ALL
        .into_iter()
        .filter(|c| {
            let ok = !c.direct() || DataFile::open(&ix.path, true).is_ok();
            if !ok {
                eprintln!("O_DIRECT refused under {}: cold-direct not tested", ix.path.display());
            }
            ok
        })
        .collect()
}

fn check_all_methods(ix: &BloomIndex, cfg: StreamConfig) {
    let spec = ix.spec;
    let expect = expected_matches(&spec);
    assert!(!expect.is_empty(), "the query row itself must match");
    let scan = BloomScan::new(ix.clone());
    let pages = ix.data_pages() as u64;
    let mut backend = Backend::new(cfg);
    for cache in caches(ix) {
        for m in Method::ALL {
            let mut sink = Calls::default();
            let o = scan_once(&scan, m, cache, &mut backend, &mut sink).unwrap_or_else(|e| panic!("{m:?} {cache:?}: {e:#}"));
            let what = format!("{} rows, {:?}, {:?}", spec.rows, m, cache);
            assert_eq!(sink.tids, expect, "{what}: TIDs differ from the oracle");
            assert_eq!(o.ntids as usize, expect.len(), "{what}: ntids");
            assert!(sink.all_recheck && sink.max_per_call == 1 && sink.calls == expect.len() as u64, "{what}: one TID a call, recheck");
            assert_eq!(o.stats.bytes_read, pages * BLCKSZ as u64, "{what}: every data page read once, the metapage never");
            assert_eq!(o.stats.advice_calls, 0, "{what}: read_stream.c gives no advice for one sequential range");
            match m {
                Method::SyncPerPage => assert_eq!(o.stats.read_calls, pages, "{what}: one pread a page"),
                _ => {
                    let limit = cfg.io_combine_limit as u64;
                    assert_eq!(o.stats.ios, pages.div_ceil(limit), "{what}: reads combined to io_combine_limit");
                    assert!(o.stats.max_ios_in_flight as usize <= cfg.max_ios, "{what}: at most max_ios reads in flight");
                    assert!(o.stats.max_distance as usize <= cfg.max_pinned_buffers(), "{what}: distance capped");
                }
            }
        }
    }
}

#[test]
fn every_variant_returns_the_synchronous_scans_tids() {
    let dir = tmpdir();
    // 6 data pages, the last partly filled; then 393, more than the 129-page queue.
    for rows in [3_000, 200_000] {
        check_all_methods(&index(dir.path(), rows), StreamConfig::default());
    }
}

#[test]
fn a_small_queue_wraps_reads_around_its_end() {
    let dir = tmpdir();
    let ix = index(dir.path(), 60_000);
    // 20 pinned buffers, a 21-page queue: 16-block reads straddle its end.
    let cfg = StreamConfig { pin_limit: 20, ..StreamConfig::default() };
    assert_eq!(cfg.max_pinned_buffers(), 20);
    check_all_methods(&ix, cfg);
}

#[test]
fn stream_limits_follow_read_stream_c() {
    let d = StreamConfig::default();
    // (16 + 1) x 16 = 272, the BAS_BULKREAD ring (288), GetPinLimit (128 assumed).
    assert_eq!(d.max_pinned_buffers(), 128);
    assert_eq!(StreamConfig { pin_limit: 10_000, ..d }.max_pinned_buffers(), 272);
    assert_eq!(StreamConfig { pin_limit: 10_000, strategy_pin_limit: 100, ..d }.max_pinned_buffers(), 100);
    assert_eq!(StreamConfig { pin_limit: 0, ..d }.max_pinned_buffers(), 1);
}

#[test]
fn a_file_of_partial_pages_is_an_error_naming_it() {
    let dir = tmpdir();
    let spec = BloomSpec::rows(5_000);
    let path = dir.path().join(spec.file_name());
    fs::write(&path, vec![0u8; 3 * BLCKSZ + 100]).unwrap();
    let err = BloomIndex::open_or_create(dir.path(), &spec).unwrap_err().to_string();
    assert!(err.contains(&path.display().to_string()) && err.contains("not a whole number"), "{err}");
    assert!(matches!(BloomIndex::open(&path, &spec), Err(OpenError::NotWholePages { len, .. }) if len == 3 * BLCKSZ as u64 + 100));
    // Left alone for the user to look at, not overwritten.
    assert_eq!(fs::metadata(&path).unwrap().len(), 3 * BLCKSZ as u64 + 100);
    let err = DataFile::open(&path, false).unwrap_err().to_string();
    assert!(err.contains(&path.display().to_string()), "{err}");
}

#[test]
fn a_mismatched_header_is_recreated() {
    let dir = tmpdir();
    let spec = BloomSpec::rows(5_000);
    let (ix, origin) = BloomIndex::open_or_create(dir.path(), &spec).unwrap();
    assert_eq!(origin, Origin::Created);
    assert_eq!(BloomIndex::open_or_create(dir.path(), &spec).unwrap().1, Origin::Reused);

    // A damaged magic number.
    let mut f = fs::OpenOptions::new().write(true).open(&ix.path).unwrap();
    f.seek(SeekFrom::Start(24)).unwrap();
    f.write_all(&[0, 0, 0, 0]).unwrap();
    drop(f);
    let (again, origin) = BloomIndex::open_or_create(dir.path(), &spec).unwrap();
    assert!(matches!(&origin, Origin::Recreated(why) if why.contains("magic")), "{origin:?}");
    assert_eq!(again.npages as u64, spec.npages());

    // A whole, valid index built from other parameters under this name.
    let other = BloomSpec::rows(7_000);
    let other_ix = index(dir.path(), other.rows);
    fs::rename(&other_ix.path, &ix.path).unwrap();
    let (again, origin) = BloomIndex::open_or_create(dir.path(), &spec).unwrap();
    assert!(matches!(&origin, Origin::Recreated(why) if why.contains("7000")), "{origin:?}");
    let mut sink = Calls::default();
    scan_once(&BloomScan::new(again), Method::SyncPerPage, Cache::Warm, &mut Backend::default(), &mut sink).unwrap();
    assert_eq!(sink.tids, expected_matches(&spec));
}

/// The body checksum: a byte flipped in a data page is detected, the file named, and the
/// index re-created; its scan then finds what the generator says.
#[test]
fn a_flipped_byte_in_the_body_is_detected_named_and_recreated() {
    let dir = tmpdir();
    let spec = BloomSpec::rows(20_000);
    let ix = index(dir.path(), spec.rows);
    for at in [3 * BLCKSZ as u64 + 1000, ix.len() - 1] {
        let mut f = fs::OpenOptions::new().read(true).write(true).open(&ix.path).unwrap();
        let mut b = [0u8; 1];
        f.seek(SeekFrom::Start(at)).unwrap();
        std::io::Read::read_exact(&mut f, &mut b).unwrap();
        f.seek(SeekFrom::Start(at)).unwrap();
        f.write_all(&[b[0] ^ 0x10]).unwrap();
        drop(f);
        let e = BloomIndex::open(&ix.path, &spec).unwrap_err();
        assert!(matches!(e, OpenError::Corrupt { .. }), "byte {at}: {e}");
        assert!(e.to_string().contains(&ix.path.display().to_string()) && e.to_string().contains("corrupt"), "{e}");
        let (again, origin) = BloomIndex::open_or_create(dir.path(), &spec).unwrap();
        assert!(matches!(&origin, Origin::Recreated(why) if why.contains("corrupt")), "{origin:?}");
        let mut sink = Calls::default();
        scan_once(&BloomScan::new(again), Method::SyncPerPage, Cache::Warm, &mut Backend::default(), &mut sink).unwrap();
        assert_eq!(sink.tids, expected_matches(&spec));
    }
}

#[test]
fn a_corrupt_data_page_is_an_error_not_a_wild_read() {
    let dir = tmpdir();
    let ix = index(dir.path(), 30_000);
    let mut f = fs::OpenOptions::new().write(true).open(&ix.path).unwrap();
    // maxoff of block 7 far past what a page holds.
    f.seek(SeekFrom::Start(7 * BLCKSZ as u64 + BLOOM_SPECIAL_OFFSET as u64)).unwrap();
    f.write_all(&9_999u16.to_ne_bytes()).unwrap();
    drop(f);
    let scan = BloomScan::new(ix.clone());
    let mut backend = Backend::default();
    for m in Method::ALL {
        let err = scan_once(&scan, m, Cache::Warm, &mut backend, &mut Calls::default()).unwrap_err();
        let msg = format!("{err:#}");
        assert!(msg.contains(&ix.path.display().to_string()) && msg.contains("block 7") && msg.contains("9999"), "{m:?}: {msg}");
    }
}

#[test]
fn check_page_skips_new_and_deleted_pages() {
    let state = BloomState::default_for(6);
    let mut page = vec![0u8; BLCKSZ];
    let query = [0b11u16, 0, 0, 0, 0];
    let mut sink = Calls::default();
    // A new (all-zero) page.
    assert_eq!(unsafe { hl_read_stream_check_page(page.as_ptr(), &state, query.as_ptr(), &mut sink) }, 0);
    bloom_init_page(&mut page, 0);
    for (i, w) in [0b01u16, 0b11, 0b111, 0].into_iter().enumerate() {
        assert!(bloom_page_add_item(&state, &mut page, ItemPointer::new(3, i as u16 + 1), &[w, 9, 9, 9, 9]));
    }
    assert_eq!(unsafe { hl_read_stream_check_page(page.as_ptr(), &state, query.as_ptr(), &mut sink) }, 2);
    assert_eq!(sink.tids, vec![ItemPointer::new(3, 2), ItemPointer::new(3, 3)]);
    page[BLOOM_SPECIAL_OFFSET + 2..BLOOM_SPECIAL_OFFSET + 4].copy_from_slice(&BLOOM_DELETED.to_ne_bytes());
    assert_eq!(unsafe { hl_read_stream_check_page(page.as_ptr(), &state, query.as_ptr(), &mut sink) }, 0);
}

/// Descriptors of this process open on `path`.
fn open_fds_on(path: &Path) -> usize {
    let want = fs::canonicalize(path).unwrap();
    fs::read_dir("/proc/self/fd")
        .map(|d| d.filter_map(|e| fs::read_link(e.ok()?.path()).ok()).filter(|p| *p == want).count())
        .unwrap_or(0)
}

#[test]
fn no_variant_leaves_page_cache_state_behind() {
    let dir = tmpdir();
    let ix = index(dir.path(), 100_000);
    let scan = BloomScan::new(ix.clone());
    let mut backend = Backend::default();
    let direct = DataFile::open(&ix.path, true).is_ok();
    for m in Method::ALL {
        // Buffered and cold: when the scan returns, nothing is still being read into the
        // cache (residency is stable), no descriptor stays open (per-descriptor readahead
        // state and access advice end with it), and the file can be evicted again.
        scan_once(&scan, m, Cache::ColdBuffered, &mut backend, &mut Calls::default()).unwrap();
        let (r1, total) = resident_pages(&ix.path).unwrap();
        assert!(r1 >= total - (BLCKSZ as u64 / 4096), "{m:?}: data pages resident after a buffered scan ({r1} of {total})");
        std::thread::sleep(Duration::from_millis(100));
        // No more pages than at the return; fewer is the kernel reclaiming under memory
        // pressure (two test suites at once evicted 3 of 394), not the variant.
        let r2 = resident_pages(&ix.path).unwrap().0;
        assert!(r2 <= r1, "{m:?}: pages still arriving after the scan returned ({r1} resident at its return, {r2} 100 ms later)");
        assert_eq!(open_fds_on(&ix.path), 0, "{m:?}: a descriptor on the file stayed open");
        evict(&ix.path).unwrap();
        assert_eq!(resident_pages(&ix.path).unwrap().0, 0);

        // Direct: no page reaches the cache, before or after (no advice, no buffered read).
        if direct {
            scan_once(&scan, m, Cache::ColdDirect, &mut backend, &mut Calls::default()).unwrap();
            std::thread::sleep(Duration::from_millis(50));
            assert_eq!(resident_pages(&ix.path).unwrap().0, 0, "{m:?}: a direct scan left pages in the cache");
            assert_eq!(open_fds_on(&ix.path), 0, "{m:?}: a descriptor on the file stayed open");
        }
    }
}

#[test]
fn eviction_that_fails_is_reported() {
    let dir = tmpdir();
    let ix = index(dir.path(), 5_000);
    let f = fs::File::open(&ix.path).unwrap();
    let len = BLCKSZ;
    // A mapped, touched page cannot be dropped by POSIX_FADV_DONTNEED.
    let addr = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ, libc::MAP_SHARED, std::os::fd::AsRawFd::as_raw_fd(&f), 0) };
    assert_ne!(addr, libc::MAP_FAILED);
    let touched = unsafe { std::ptr::read_volatile(addr as *const u8) };
    let err = evict(&ix.path).unwrap_err().to_string();
    unsafe { libc::munmap(addr, len) };
    assert!(err.contains(&ix.path.display().to_string()) && err.contains("still in the page cache"), "{err} ({touched})");
    evict(&ix.path).unwrap();
}

#[test]
fn cases_agree_through_the_case_interface() {
    let dir = tmpdir();
    let ix = index(dir.path(), 20_000);
    let mut digests = Vec::new();
    for cache in caches(&ix) {
        let mut case = ReadStreamCase::new(ix.clone(), Origin::Reused, cache, Backend::default());
        assert!(hotloops::study::read_stream::info().case(cache.name()).is_ok(), "{} is in the catalogue", cache.name());
        assert_eq!(case.items(), ix.data_pages() as u64);
        let rows = hotloops::study::read_stream::info().variants;
        for v in rows {
            digests.push(case.run(v).unwrap());
            assert!(case.last.contains_key(v.id));
        }
        let m = case.extra_metrics(&rows[1]).unwrap();
        let speedup = m.iter().find(|(k, _, _)| k == "speedup-vs-sync-per-page");
        assert!(speedup.is_none(), "no speedup before the baseline was measured");
        let m0 = case.extra_metrics(&rows[0]).unwrap();
        assert!(m0.iter().any(|(k, v, _)| k == "scan-time" && *v > 0.0));
        assert!(case.extra_metrics(&rows[3]).unwrap().iter().any(|(k, _, _)| k == "speedup-vs-sync-per-page"));
    }
    digests.dedup();
    assert_eq!(digests.len(), 1, "variants or caches disagree");
}

#[test]
fn pipeline_scans_with_the_built_variant() {
    let dir = tmpdir();
    let ix = index(dir.path(), 20_000);
    let expect = expected_matches(&ix.spec);
    let n = pipeline(&BloomScan::new(ix), &mut Backend::default(), &mut Calls::default()).unwrap();
    assert_eq!(n as usize, expect.len());
}

#[test]
fn the_study_is_registered() {
    let s = hotloops::study::study("read-stream").unwrap();
    assert_eq!(s.info().variants.len(), 4);
    assert_eq!(s.info().baseline, "read-stream/sync-per-page");
    assert!(hotloops::study::variant("read-stream/stream-io-uring").is_ok());
    // Size::Test cases build their file under the data directory; use a private one.
    let dir: PathBuf = tmpdir().keep();
    // SAFETY: no other thread of this test binary reads HOTLOOPS_DATA_DIR.
    unsafe { std::env::set_var("HOTLOOPS_DATA_DIR", &dir) };
    let st = hotloops::study::read_stream::ReadStreamStudy;
    assert_eq!(st.info().cases.len(), 3);
    let warm = st.build(st.info().case("warm").unwrap(), Size::Test).unwrap();
    assert!(warm.describe().contains("50000 rows"));
    fs::remove_dir_all(&dir).ok();
}
