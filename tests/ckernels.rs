//! The C reference kernels (csrc/): layouts as the C compiler sees them against the Rust
//! `#[repr(C)]` structs, and every C kernel under every built configuration against the Rust
//! baseline on the same scans (whole scans, edges, page and batch boundaries).

use hotloops::ckernels::{self, CKernel, CONFIGS, Entry};
use hotloops::study::dir_by_value::ReadPage;
use hotloops::pg::ItemPointer;
use hotloops::pg::nbtree::{
    BTReadPageState, BTScanOpaque, BTScanPos, BTScanPosItem, BTree, IndexScanDesc, KeyType, MAX_TIDS_PER_BTREE_PAGE, ScanKey,
};
use hotloops::pg::sink::{TidDigest, TidVec};
use hotloops::pg::workload::{leaf_sizes, pgbench_accounts_pkey, pgbench_ranges, table3_col0_index};
use hotloops::study::dir_by_value::RangeCase;
use hotloops::study::local_index::{LocalKernel, ScanCase};
use hotloops::study::tid_batch::TidKernel;
use std::mem::{offset_of, size_of};
use std::sync::Arc;

/// A dir-by-value C kernel as the study's cases run one.
fn read_page(k: &CKernel) -> ReadPage {
    let Entry::DirByValue(f) = k.entry else { panic!("{} is not a dir-by-value kernel", k.id) };
    ReadPage::C(f)
}

/// A local-index C kernel as the study's cases run one.
fn local_kernel(k: &CKernel) -> LocalKernel {
    let Entry::LocalIndex(f) = k.entry else { panic!("{} is not a local-index kernel", k.id) };
    LocalKernel::C(f)
}

/// A tid-batch C kernel as the study's cases run one.
fn tid_kernel(k: &CKernel) -> TidKernel {
    let Entry::TidBatch(f) = k.entry else { panic!("{} is not a tid-batch kernel", k.id) };
    TidKernel::C(f, k.config)
}

/// local-index's baseline row (store-each).
fn li0() -> &'static hotloops::study::Variant {
    hotloops::study::local_index::info().baseline_variant()
}

/// dir-by-value's baseline row (opaque).
fn dv0() -> &'static hotloops::study::Variant {
    hotloops::study::dir_by_value::info().baseline_variant()
}

fn built() -> Vec<&'static str> {
    CONFIGS.iter().filter(|c| c.built).map(|c| c.name).collect()
}

fn rows(prefix: &str) -> Vec<&'static CKernel> {
    ckernels::kernels().filter(|k| k.id.starts_with(prefix)).collect()
}

#[test]
fn canonical_config_is_built_and_every_config_says_what_it_is() {
    let c = ckernels::config(ckernels::CANONICAL).unwrap();
    assert!(c.built, "gcc12-pg must always build: {}", c.note);
    assert!(c.flags.contains("-fno-strict-aliasing -fwrapv -fexcess-precision=standard"), "{}", c.flags);
    assert!(c.flags.contains("-fstack-protector-strong") && c.flags.ends_with("-D_FORTIFY_SOURCE=2 -D_GNU_SOURCE"), "{}", c.flags);
    for c in CONFIGS {
        if c.built {
            assert!(!c.version.is_empty() && !c.compiler.is_empty(), "{c:?}");
            // cc added nothing but -I, -D and a repeated -Wall: no -fPIC, -Wextra, -ffunction-sections, -m64.
            for bad in ["-fPIC", "-Wextra", "-ffunction-sections", "-m64", "-w "] {
                assert!(!format!("{} ", c.effective_args).contains(&format!("{bad} ")), "{}: cc added {bad}: {}", c.name, c.effective_args);
            }
            assert!(c.effective_args.contains(c.flags), "{}: flags not passed verbatim", c.name);
        } else {
            assert!(c.note.contains("apt-get install"), "a skipped configuration names its package: {c:?}");
        }
    }
    let strict = ckernels::config("gcc12-strict").unwrap();
    assert!(strict.flags.contains("-fstrict-aliasing") && !strict.flags.contains("-fno-strict-aliasing"));
    assert!(ckernels::config("nope").unwrap_err().to_string().contains("gcc12-pg"));
    assert_eq!(rows("").len(), built().len() * ckernels::variant_ids().len());
}

#[test]
fn c_layouts_equal_rust_layouts() {
    // The model's own C (csrc/pg_*.c) reads these crate structs too.
    use hotloops::pg::bufmgr::{PrivateRefCount, PrivateRefCountEntry};
    use hotloops::pg::fmgr::FmgrInfo;
    use hotloops::pg::nbtreadpage::{BTReadPageState as PgReadPageState, BTScanKeys, NbtScan};
    use hotloops::pg::nbtsearch::{BTScanInsertData, CompactAttribute, IndexRel, RelForm, ScanKeyData as PgScanKey};
    let rust: Vec<(&str, &str, usize, usize)> = {
        macro_rules! f {
            ($s:literal, $f:literal, $t:ty, $field:ident, $ft:ty) => {
                ($s, $f, offset_of!($t, $field), size_of::<$ft>())
            };
        }
        vec![
            ("ItemPointerData", "", 0, size_of::<ItemPointer>()),
            ("ItemPointerData", "ip_blkid", 0, 4),
            f!("ItemPointerData", "ip_posid", ItemPointer, ip_posid, u16),
            ("BTScanPosItem", "", 0, size_of::<BTScanPosItem>()),
            f!("BTScanPosItem", "heapTid", BTScanPosItem, heap_tid, ItemPointer),
            f!("BTScanPosItem", "indexOffset", BTScanPosItem, index_offset, u16),
            f!("BTScanPosItem", "tupleOffset", BTScanPosItem, tuple_offset, u16),
            ("BTScanPosData", "", 0, size_of::<BTScanPos>()),
            f!("BTScanPosData", "buf", BTScanPos, buf, i32),
            f!("BTScanPosData", "currPage", BTScanPos, curr_page, u32),
            f!("BTScanPosData", "prevPage", BTScanPos, prev_page, u32),
            f!("BTScanPosData", "nextPage", BTScanPos, next_page, u32),
            f!("BTScanPosData", "lsn", BTScanPos, lsn, u64),
            f!("BTScanPosData", "dir", BTScanPos, dir, i32),
            f!("BTScanPosData", "nextTupleOffset", BTScanPos, next_tuple_offset, i32),
            f!("BTScanPosData", "moreLeft", BTScanPos, more_left, bool),
            f!("BTScanPosData", "moreRight", BTScanPos, more_right, bool),
            f!("BTScanPosData", "firstItem", BTScanPos, first_item, i32),
            f!("BTScanPosData", "lastItem", BTScanPos, last_item, i32),
            f!("BTScanPosData", "itemIndex", BTScanPos, item_index, i32),
            f!("BTScanPosData", "items", BTScanPos, items, [BTScanPosItem; MAX_TIDS_PER_BTREE_PAGE]),
            ("BTScanOpaqueData", "", 0, size_of::<BTScanOpaque>()),
            f!("BTScanOpaqueData", "qual_ok", BTScanOpaque, qual_ok, bool),
            f!("BTScanOpaqueData", "numberOfKeys", BTScanOpaque, number_of_keys, i32),
            f!("BTScanOpaqueData", "keyData", BTScanOpaque, key_data, usize),
            f!("BTScanOpaqueData", "numArrayKeys", BTScanOpaque, num_array_keys, i32),
            f!("BTScanOpaqueData", "skipScan", BTScanOpaque, skip_scan, bool),
            f!("BTScanOpaqueData", "needPrimScan", BTScanOpaque, need_prim_scan, bool),
            f!("BTScanOpaqueData", "scanBehind", BTScanOpaque, scan_behind, bool),
            f!("BTScanOpaqueData", "oppositeDirCheck", BTScanOpaque, opposite_dir_check, bool),
            f!("BTScanOpaqueData", "arrayKeys", BTScanOpaque, array_keys, usize),
            f!("BTScanOpaqueData", "orderProcs", BTScanOpaque, order_procs, usize),
            f!("BTScanOpaqueData", "arrayContext", BTScanOpaque, array_context, usize),
            f!("BTScanOpaqueData", "killedItems", BTScanOpaque, killed_items, usize),
            f!("BTScanOpaqueData", "numKilled", BTScanOpaque, num_killed, i32),
            f!("BTScanOpaqueData", "dropPin", BTScanOpaque, drop_pin, bool),
            f!("BTScanOpaqueData", "currTuples", BTScanOpaque, curr_tuples, usize),
            f!("BTScanOpaqueData", "markTuples", BTScanOpaque, mark_tuples, usize),
            f!("BTScanOpaqueData", "markItemIndex", BTScanOpaque, mark_item_index, i32),
            f!("BTScanOpaqueData", "currPos", BTScanOpaque, curr_pos, BTScanPos),
            f!("BTScanOpaqueData", "markPos", BTScanOpaque, mark_pos, BTScanPos),
            ("IndexScanDescData", "", 0, size_of::<IndexScanDesc>()),
            f!("IndexScanDescData", "heapRelation", IndexScanDesc, heap_relation, usize),
            f!("IndexScanDescData", "indexRelation", IndexScanDesc, index_relation, usize),
            f!("IndexScanDescData", "xs_snapshot", IndexScanDesc, xs_snapshot, usize),
            f!("IndexScanDescData", "numberOfKeys", IndexScanDesc, number_of_keys, i32),
            f!("IndexScanDescData", "numberOfOrderBys", IndexScanDesc, number_of_order_bys, i32),
            f!("IndexScanDescData", "keyData", IndexScanDesc, key_data, usize),
            f!("IndexScanDescData", "orderByData", IndexScanDesc, order_by_data, usize),
            f!("IndexScanDescData", "xs_want_itup", IndexScanDesc, xs_want_itup, bool),
            f!("IndexScanDescData", "xs_temp_snap", IndexScanDesc, xs_temp_snap, bool),
            f!("IndexScanDescData", "kill_prior_tuple", IndexScanDesc, kill_prior_tuple, bool),
            f!("IndexScanDescData", "ignore_killed_tuples", IndexScanDesc, ignore_killed_tuples, bool),
            f!("IndexScanDescData", "opaque", IndexScanDesc, opaque, usize),
            ("BTReadPageState", "", 0, size_of::<BTReadPageState>()),
            f!("BTReadPageState", "dir", BTReadPageState, dir, i32),
            f!("BTReadPageState", "minoff", BTReadPageState, minoff, u16),
            f!("BTReadPageState", "maxoff", BTReadPageState, maxoff, u16),
            f!("BTReadPageState", "finaltup", BTReadPageState, finaltup, usize),
            f!("BTReadPageState", "page", BTReadPageState, page, usize),
            f!("BTReadPageState", "firstpage", BTReadPageState, firstpage, bool),
            f!("BTReadPageState", "forcenonrequired", BTReadPageState, forcenonrequired, bool),
            f!("BTReadPageState", "startikey", BTReadPageState, startikey, i32),
            f!("BTReadPageState", "offnum", BTReadPageState, offnum, u16),
            f!("BTReadPageState", "skip", BTReadPageState, skip, u16),
            f!("BTReadPageState", "continuescan", BTReadPageState, continuescan, bool),
            f!("BTReadPageState", "rechecks", BTReadPageState, rechecks, i16),
            f!("BTReadPageState", "targetdistance", BTReadPageState, targetdistance, i16),
            f!("BTReadPageState", "nskipadvances", BTReadPageState, nskipadvances, i16),
            ("ScanKeyData", "", 0, size_of::<ScanKey>()),
            f!("ScanKeyData", "sk_flags", ScanKey, sk_flags, i32),
            f!("ScanKeyData", "sk_attno", ScanKey, sk_attno, i16),
            f!("ScanKeyData", "sk_strategy", ScanKey, sk_strategy, u16),
            f!("ScanKeyData", "sk_argument", ScanKey, sk_argument, i64),
            f!("HLIndexRelation", "keytype", BTree, key, KeyType),
            ("PagetableEntry", "", 0, size_of::<hotloops::pg::tidbitmap::PagetableEntry>()),
            f!("PagetableEntry", "blockno", hotloops::pg::tidbitmap::PagetableEntry, blockno, u32),
            f!("PagetableEntry", "status", hotloops::pg::tidbitmap::PagetableEntry, status, u8),
            f!("PagetableEntry", "ischunk", hotloops::pg::tidbitmap::PagetableEntry, ischunk, bool),
            f!("PagetableEntry", "recheck", hotloops::pg::tidbitmap::PagetableEntry, recheck, bool),
            f!("PagetableEntry", "words", hotloops::pg::tidbitmap::PagetableEntry, words, [u64; 5]),
            ("PGFmgrInfo", "", 0, size_of::<FmgrInfo>()),
            f!("PGFmgrInfo", "fn_addr", FmgrInfo, fn_addr, usize),
            f!("PGFmgrInfo", "fn_oid", FmgrInfo, fn_oid, u32),
            f!("PGFmgrInfo", "fn_nargs", FmgrInfo, fn_nargs, i16),
            f!("PGFmgrInfo", "fn_strict", FmgrInfo, fn_strict, bool),
            f!("PGFmgrInfo", "fn_retset", FmgrInfo, fn_retset, bool),
            f!("PGFmgrInfo", "fn_stats", FmgrInfo, fn_stats, u8),
            f!("PGFmgrInfo", "fn_extra", FmgrInfo, fn_extra, usize),
            f!("PGFmgrInfo", "fn_mcxt", FmgrInfo, fn_mcxt, usize),
            f!("PGFmgrInfo", "fn_expr", FmgrInfo, fn_expr, usize),
            ("PGCompactAttribute", "", 0, size_of::<CompactAttribute>()),
            f!("PGCompactAttribute", "attcacheoff", CompactAttribute, attcacheoff, i32),
            f!("PGCompactAttribute", "attlen", CompactAttribute, attlen, i16),
            f!("PGCompactAttribute", "attbyval", CompactAttribute, attbyval, bool),
            f!("PGRelForm", "relnatts", RelForm, relnatts, i16),
            f!("PGRelForm", "relpersistence", RelForm, relpersistence, u8),
            f!("PGIndexRel", "rd_rel", IndexRel, rd_rel, usize),
            f!("PGIndexRel", "nkeyatts", IndexRel, nkeyatts, i32),
            f!("PGIndexRel", "rd_att", IndexRel, rd_att, usize),
            ("PGScanKeyData", "", 0, size_of::<PgScanKey>()),
            f!("PGScanKeyData", "sk_flags", PgScanKey, sk_flags, i32),
            f!("PGScanKeyData", "sk_attno", PgScanKey, sk_attno, i16),
            f!("PGScanKeyData", "sk_strategy", PgScanKey, sk_strategy, u16),
            f!("PGScanKeyData", "sk_subtype", PgScanKey, sk_subtype, u32),
            f!("PGScanKeyData", "sk_collation", PgScanKey, sk_collation, u32),
            f!("PGScanKeyData", "sk_func", PgScanKey, sk_func, FmgrInfo),
            f!("PGScanKeyData", "sk_argument", PgScanKey, sk_argument, usize),
            ("PGBTScanInsertData", "", 0, size_of::<BTScanInsertData>()),
            f!("PGBTScanInsertData", "heapkeyspace", BTScanInsertData, heapkeyspace, bool),
            f!("PGBTScanInsertData", "allequalimage", BTScanInsertData, allequalimage, bool),
            f!("PGBTScanInsertData", "anynullkeys", BTScanInsertData, anynullkeys, bool),
            f!("PGBTScanInsertData", "nextkey", BTScanInsertData, nextkey, bool),
            f!("PGBTScanInsertData", "backward", BTScanInsertData, backward, bool),
            f!("PGBTScanInsertData", "scantid", BTScanInsertData, scantid, usize),
            f!("PGBTScanInsertData", "keysz", BTScanInsertData, keysz, i32),
            f!("PGBTScanInsertData", "scankeys", BTScanInsertData, scankeys, [PgScanKey; 1]),
            f!("PGBTScanKeys", "numberOfKeys", BTScanKeys, number_of_keys, i32),
            f!("PGBTScanKeys", "input", BTScanKeys, input, [PgScanKey; 1]),
            f!("PGBTScanKeys", "keyData", BTScanKeys, key_data, [PgScanKey; 1]),
            f!("PGBTScanKeys", "orderProcs", BTScanKeys, order_procs, usize),
            ("PGNbtScan", "", 0, size_of::<NbtScan>()),
            f!("PGNbtScan", "so", NbtScan, so, usize),
            f!("PGNbtScan", "keys", NbtScan, keys, usize),
            f!("PGNbtScan", "rel", NbtScan, rel, usize),
            ("PGBTReadPageState", "", 0, size_of::<PgReadPageState>()),
            f!("PGBTReadPageState", "minoff", PgReadPageState, minoff, u16),
            f!("PGBTReadPageState", "maxoff", PgReadPageState, maxoff, u16),
            f!("PGBTReadPageState", "finaltup", PgReadPageState, finaltup, usize),
            f!("PGBTReadPageState", "firstpage", PgReadPageState, firstpage, bool),
            f!("PGBTReadPageState", "forcenonrequired", PgReadPageState, forcenonrequired, bool),
            f!("PGBTReadPageState", "startikey", PgReadPageState, startikey, i32),
            f!("PGBTReadPageState", "offnum", PgReadPageState, offnum, u16),
            f!("PGBTReadPageState", "skip", PgReadPageState, skip, u16),
            f!("PGBTReadPageState", "continuescan", PgReadPageState, continuescan, bool),
            f!("PGBTReadPageState", "rechecks", PgReadPageState, rechecks, i16),
            f!("PGBTReadPageState", "targetdistance", PgReadPageState, targetdistance, i16),
            f!("PGBTReadPageState", "nskipadvances", PgReadPageState, nskipadvances, i16),
            ("PGPrivateRefCountEntry", "", 0, size_of::<PrivateRefCountEntry>()),
            f!("PGPrivateRefCountEntry", "buffer", PrivateRefCountEntry, buffer, i32),
            f!("PGPrivateRefCountEntry", "refcount", PrivateRefCountEntry, refcount, i32),
            ("PGPrivateRefCount", "", 0, size_of::<PrivateRefCount>()),
            f!("PGPrivateRefCount", "array", PrivateRefCount, array, [PrivateRefCountEntry; 8]),
            f!("PGPrivateRefCount", "overflowed", PrivateRefCount, overflowed, i32),
            ("HL_BATCH_CAPACITY", "", 0, ckernels::BATCH_CAPACITY),
        ]
    };
    for cfg in built() {
        let c: Vec<(String, String, usize, usize)> =
            ckernels::layout(cfg).unwrap().into_iter().map(|r| (r.strct, r.field, r.offset as usize, r.size as usize)).collect();
        let r: Vec<(String, String, usize, usize)> = rust.iter().map(|&(s, f, o, z)| (s.into(), f.into(), o, z)).collect();
        assert_eq!(c, r, "{cfg}: C layout (left) differs from Rust (right)");
    }
    // C reads the key type as one byte: 0 = int4, 1 = int8 (a Rust enum without repr).
    // SAFETY: KeyType is one byte (checked by size above), any byte pattern of it is readable.
    let byte = |k: KeyType| unsafe { *(&k as *const KeyType as *const u8) };
    assert_eq!((byte(KeyType::Int4), byte(KeyType::Int8)), (0, 1));
    assert!(ckernels::layout("clang19-pg-nope").is_err());
}

/// What the Rust baseline (`local-index/store-each`) does from the same position: (ntids,
/// TIDs, digest). `ScanCase` shows its cursor only after whole scans (checked below).
fn rust_from(case: &mut ScanCase, pos: Option<&BTScanPos>) -> (i64, Vec<ItemPointer>, TidDigest) {
    let start = |case: &mut ScanCase| match pos {
        Some(p) => case.position_at(p),
        None => case.position(),
    };
    start(case);
    let mut v = TidVec::default();
    let n = case.run_from_position(li0(), &mut v).unwrap();
    start(case);
    let mut d = TidDigest::new();
    assert_eq!(case.run_from_position(li0(), &mut d).unwrap(), n);
    (n, v.0, d)
}

/// A C kernel through the study's own scan (`ScanCase`, the one positioning path): (ntids,
/// TIDs, digest, final cursor).
fn c_from(scan: &mut ScanCase, k: &CKernel, pos: Option<&BTScanPos>) -> (i64, Vec<ItemPointer>, TidDigest, (i32, i32, u32)) {
    let start = |scan: &mut ScanCase| match pos {
        Some(p) => scan.position_at(p),
        None => scan.position(),
    };
    start(scan);
    let mut v = TidVec::default();
    let n = scan.run_kernel_from_position(&local_kernel(k), &mut v);
    start(scan);
    let mut d = TidDigest::new();
    assert_eq!(scan.run_kernel_from_position(&local_kernel(k), &mut d), n);
    let cur = scan.cursor();
    (n, v.0, d, cur)
}

/// Index builds for the local-index checks: (name, tree, positions to start from).
type Build = Box<dyn Fn() -> BTree>;

fn local_index_cases() -> Vec<(String, Build, Vec<Option<BTScanPos>>)> {
    let mut v = vec![];
    v.push(("table3-20k".to_string(), Box::new(|| table3_col0_index(20_000)) as Build, vec![None]));
    v.push(("empty".into(), Box::new(|| table3_col0_index(0)), vec![None]));
    v.push(("one".into(), Box::new(|| table3_col0_index(1)), vec![None]));
    // Exactly one batch (1358) and one past it, over pages of 366: the flush inside the loop
    // fires at the boundary; and pages of 291 (a heap page's worth of TIDs).
    for (n, per) in [(1358usize, 366usize), (1359, 366), (2716, 366), (2717, 291), (5000, 291), (1000, 1)] {
        let build = move || {
            let entries: Vec<_> = (0..n as i64).map(|k| (k, ItemPointer::new(k as u32 / 291, (k % 291 + 1) as u16))).collect();
            BTree::build(KeyType::Int8, &entries, &leaf_sizes(n, per))
        };
        v.push((format!("{n}-per-{per}"), Box::new(build), vec![None]));
    }
    // Empty leaves in the middle and at the end.
    let gaps = || {
        let entries: Vec<_> = (0..10i64).map(|k| (k, ItemPointer::new(0, k as u16 + 1))).collect();
        BTree::build(KeyType::Int8, &entries, &[4, 0, 3, 3, 0])
    };
    v.push(("gaps".into(), Box::new(gaps), vec![None]));
    // A full 1358-item page set directly (no real leaf holds that many), started at its
    // beginning, in the middle and past its end, then continuing along a small index.
    let mut full = BTScanPos::invalid();
    for (i, it) in full.items.iter_mut().enumerate() {
        *it = BTScanPosItem { heap_tid: ItemPointer::new(7_000 + i as u32 / 291, (i % 291 + 1) as u16), index_offset: i as u16 + 1, tuple_offset: 0 };
    }
    full.first_item = 0;
    full.last_item = MAX_TIDS_PER_BTREE_PAGE as i32 - 1;
    full.curr_page = 99;
    full.next_page = 2;
    let mut mid = full.clone();
    mid.item_index = 1000;
    let mut past = full.clone();
    past.item_index = MAX_TIDS_PER_BTREE_PAGE as i32;
    let mut last_page = full.clone();
    last_page.next_page = 0;
    v.push(("full-page".into(), Box::new(|| table3_col0_index(1_000)), vec![Some(full), Some(mid), Some(past), Some(last_page)]));
    v
}

#[test]
fn local_index_c_kernels_equal_rust_store_each() {
    let ks = rows("local-index/");
    assert_eq!(ks.len(), 3 * built().len());
    for (name, build, starts) in local_index_cases() {
        let mut rust = ScanCase::new(build());
        let mut c = ScanCase::new(build());
        for start in &starts {
            let (rn, rtids, rd) = rust_from(&mut rust, start.as_ref());
            for k in &ks {
                let (n, tids, d, cur) = c_from(&mut c, k, start.as_ref());
                let what = format!("{} [{}] on {name} from {:?}", k.id, k.config, start.as_ref().map(|p| p.item_index));
                assert_eq!(n, rn, "{what}: ntids");
                assert_eq!(tids, rtids, "{what}: TIDs");
                assert_eq!((d.count, d.hash), (rd.count, rd.hash), "{what}: digest");
                if k.variant() != "c-span" {
                    // c-span flushes at span bounds, not at exactly full batches.
                    assert_eq!(d.calls, rd.calls, "{what}: flushes");
                }
                assert_eq!(cur.0, cur.1 + 1, "{what}: cursor past the last item");
            }
        }
        // Whole scans: the final cursor equals the Rust kernel's.
        if starts.len() == 1 && starts[0].is_none() {
            let o = rust.outcome(li0()).unwrap();
            for k in &ks {
                let co = c.outcome_with(&local_kernel(k)).unwrap();
                assert_eq!((co.ntids, co.sink.count, co.sink.hash), (o.ntids, o.sink.count, o.sink.hash), "{} [{}] on {name}", k.id, k.config);
                assert_eq!((co.item_index, co.last_item, co.curr_page), (o.item_index, o.last_item, o.curr_page), "{} [{}] on {name}: cursor", k.id, k.config);
                if k.variant() != "c-span" {
                    assert_eq!(co.value(), o.value(), "{} [{}] on {name}: the case's digest", k.id, k.config);
                }
            }
        }
    }
}

#[test]
fn dir_by_value_c_kernels_equal_rust() {
    let ks = rows("dir-by-value/");
    assert_eq!(ks.len(), 2 * built().len());
    let accounts = 40_000;
    let rel = Arc::new(pgbench_accounts_pkey(accounts));
    for (len, count) in [(2_000u64, 4usize), (15_000, 2), (1, 3), (366, 3)] {
        for min_keys in [0, 1] {
            let ranges = pgbench_ranges(accounts, len, count, 0x5EED_0001 ^ len);
            let mut rust = RangeCase::new(rel.clone(), accounts, len, ranges.clone(), min_keys);
            for v in [0, 1] {
                let r = rust.outcome(&hotloops::study::dir_by_value::info().variants[v]).unwrap();
                for k in &ks {
                    let o = rust.outcome_with(&read_page(k));
                    let what = format!("{} [{}] range {len} x{count}, {min_keys} keys, vs Rust variant {v}", k.id, k.config);
                    assert_eq!((o.digest, o.pages, o.last), (r.digest, r.pages, r.last), "{what}");
                    assert!(o.digest.count >= len.min(accounts) * count as u64 / 2, "{what}: saved too few");
                }
            }
        }
    }
    // Ranges at the ends of the index and past it.
    let ranges = vec![(1, 10), (accounts as i64 - 5, accounts as i64 + 100), (accounts as i64 + 10, accounts as i64 + 20)];
    for min_keys in [0, 1] {
        let mut rust = RangeCase::new(rel.clone(), accounts, 10, ranges.clone(), min_keys);
        let r = rust.outcome(dv0()).unwrap();
        for k in &ks {
            let o = rust.outcome_with(&read_page(k));
            assert_eq!((o.digest, o.pages, o.last), (r.digest, r.pages, r.last), "{} [{}] edges", k.id, k.config);
        }
        assert_eq!(r.digest.count, 10 + 6);
    }
}

#[test]
fn wrong_study_kernel_is_an_error() {
    let li = rows("local-index/")[0];
    let dv = hotloops::study::dir_by_value::info().variant("c-opaque").unwrap();
    let mut s = ScanCase::new(table3_col0_index(10));
    assert!(s.run_from_position(dv, &mut TidDigest::new()).is_err(), "a dir-by-value row on a local-index scan");
    assert!(!matches!(li.entry, Entry::DirByValue(_)), "a local-index kernel is not a readpage");
    assert!(ckernels::kernel("local-index/c-nope", "gcc12-pg").unwrap_err().to_string().contains("c-store-each"));
}

// ---------------------------------------------------------------------------------------------
// The C TIDBitmap (csrc/tidbitmap.c) against the Rust model, and the tid-batch C kernels.

use hotloops::ckernels::CTidBitmap;
use hotloops::pg::sink::TidSink;
use hotloops::pg::tidbitmap::{PagetableEntry, TbmStatus, TidBitmap};
use proptest::prelude::*;

const BIG: usize = 1 << 30;

/// Everything the two bitmaps must agree on: state, counters, table size, every bucket, the
/// lossify position, the read-back and the digest (one formula, `tidbitmap_digest`).
fn same_bitmap(c: &CTidBitmap, r: &TidBitmap, what: &str) {
    let i = c.info();
    let status = match r.status() {
        TbmStatus::Empty => 0,
        TbmStatus::OnePage => 1,
        TbmStatus::Hash => 2,
    };
    assert_eq!(
        (i.status, i.nentries, i.npages, i.nchunks, i.maxentries, i.lossify_start),
        (status, r.nentries(), r.npages(), r.nchunks(), r.maxentries(), r.lossify_start()),
        "{what} [{}]: counters",
        c.config
    );
    let rb: Vec<PagetableEntry> = match r.pagetable() {
        Some(pt) => {
            assert_eq!((i.size, i.members, i.grow_threshold), (pt.size(), pt.members(), pt.grow_threshold()), "{what} [{}]: table", c.config);
            pt.buckets().to_vec()
        }
        None => r.entries(),
    };
    assert!(c.buckets() == rb, "{what} [{}]: buckets differ", c.config);
    assert_eq!(c.entries(), r.entries(), "{what} [{}]: entries", c.config);
    assert_eq!(c.digest(), r.digest(), "{what} [{}]: digest", c.config);
    assert_eq!(c.heap_blocks(), r.heap_blocks(), "{what} [{}]: heap blocks", c.config);
    let rerr = r.error().map(|e| (1, e.block, e.offset));
    assert_eq!(i.error, rerr, "{what} [{}]: error", c.config);
}

fn feed_at(maxbytes: usize, calls: &[(Vec<ItemPointer>, bool)]) {
    for cfg in built() {
        let mut c = CTidBitmap::new(cfg, maxbytes).unwrap();
        let mut r = TidBitmap::new(maxbytes);
        for (tids, recheck) in calls {
            c.add_tuples(tids, *recheck);
            r.add_tuples(tids, *recheck);
        }
        same_bitmap(&c, &r, &format!("{} calls at {maxbytes} bytes", calls.len()));
    }
}

fn feed(calls: &[(Vec<ItemPointer>, bool)]) {
    feed_at(BIG, calls);
}

#[test]
fn c_tidbitmap_edges_equal_rust() {
    feed(&[]);
    feed(&[(vec![], false)]);
    feed(&[(vec![ItemPointer::new(7, 1)], false)]);
    feed(&[(vec![ItemPointer::new(7, 291), ItemPointer::new(7, 1)], true)]);
    // Offsets 0 and 292 are PostgreSQL's ERROR: the call stops there.
    feed(&[(vec![ItemPointer::new(1, 5), ItemPointer::new(1, 0), ItemPointer::new(2, 1)], false), (vec![ItemPointer::new(3, 1)], false)]);
    feed(&[(vec![ItemPointer::new(1, 292)], false)]);
    // Many pages, one TID each: the table grows from 256 buckets several times.
    let many: Vec<ItemPointer> = (0..20_000u32).map(|b| ItemPointer::new(b.wrapping_mul(2_654_435_761) >> 8, 1 + (b % 291) as u16)).collect();
    feed(&[(many.clone(), false)]);
    let per: Vec<_> = many.iter().map(|&t| (vec![t], false)).collect();
    feed(&per);
    // Heap order, 291 tuples a page, over page boundaries.
    let heap: Vec<ItemPointer> = (0..5_000u32).map(|g| ItemPointer::new(g / 291, (g % 291 + 1) as u16)).collect();
    feed(&[(heap, false)]);
    let c = CTidBitmap::new(ckernels::CANONICAL, BIG).unwrap();
    assert!(c.buckets().is_empty() && c.info().status == 0);
    assert!(CTidBitmap::new("nope", BIG).is_err());
}

#[test]
fn c_tidbitmap_lossy_equals_rust() {
    // maxentries 16: 300 pages of one TID go lossy, chunk headers included; the TIDs after
    // the lossify land on lossy pages and are dropped.
    let pages: Vec<_> = (0..300u32).map(|b| (vec![ItemPointer::new(b, (b % 291 + 1) as u16)], b % 3 == 0)).collect();
    feed_at(0, &pages);
    // In one call (the within-call cache re-looks-up after each lossify), and heap order
    // with 291 tuples a page over 3 chunks of 256 pages.
    let one: Vec<ItemPointer> = pages.iter().map(|p| p.0[0]).collect();
    feed_at(0, &[(one, false)]);
    let heap: Vec<ItemPointer> = (0..800 * 291u32).map(|g| ItemPointer::new(g / 291, (g % 291 + 1) as u16)).collect();
    feed_at(64 * 100, &[(heap.clone(), true)]);
    feed_at(64 * 100, &heap.chunks(291).map(|c| (c.to_vec(), false)).collect::<Vec<_>>());
    // Lossify cannot reach half: maxentries doubles (every page a chunk header).
    let headers: Vec<_> = (0..40u32).map(|c| (vec![ItemPointer::new(c * 256, 1)], false)).collect();
    feed_at(0, &headers);
    let c = {
        let mut c = CTidBitmap::new(ckernels::CANONICAL, 0).unwrap();
        c.add_tuples(&headers.iter().map(|h| h.0[0]).collect::<Vec<_>>(), false);
        c
    };
    assert!(c.info().maxentries > 16, "{:?}", c.info());
    let mut lossy = CTidBitmap::new(ckernels::CANONICAL, 0).unwrap();
    lossy.add_tuples(&pages.iter().map(|p| p.0[0]).collect::<Vec<_>>(), false);
    assert!(lossy.info().nchunks > 0 && lossy.heap_blocks().1 > 0, "{:?}", lossy.info());
}

#[test]
fn c_tidbitmap_grows_like_rust() {
    for cfg in built() {
        let mut c = CTidBitmap::new(cfg, BIG).unwrap();
        let mut r = TidBitmap::new(BIG);
        for b in 0..3_000u32 {
            let t = [ItemPointer::new(b * 7, 3)];
            c.add_tuples(&t, false);
            r.add_tuples(&t, false);
        }
        same_bitmap(&c, &r, "3000 pages");
        assert!(c.info().size >= 4096, "{cfg}: {:?}", c.info());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn c_tidbitmap_equals_rust_on_random_streams(
        calls in proptest::collection::vec(
            (proptest::collection::vec((0u32..600, 0u16..=293), 0..300), any::<bool>()),
            0..12,
        ),
        spread in 1u32..100_000,
        maxbytes in prop_oneof![Just(BIG), Just(0usize), 0usize..64 * 200],
    ) {
        let calls: Vec<(Vec<ItemPointer>, bool)> = calls
            .into_iter()
            .map(|(v, rc)| (v.into_iter().map(|(b, o)| ItemPointer::new(b.wrapping_mul(spread), o)).collect(), rc))
            .collect();
        feed_at(maxbytes, &calls);
    }
}

/// The tid-batch rows, and every configuration's C kernels, on the study's B-tree cases and
/// on edge indexes: the C bitmap equals the one Rust per-tid builds (bucket by bucket, digest,
/// counters), and the case's value (`Case::run`'s digest) is the same for C and Rust.
#[test]
fn tid_batch_c_kernels_equal_rust_into_the_same_bitmap() {
    use hotloops::pg::tidbitmap::DEFAULT_WORK_MEM_BYTES;
    use hotloops::study::tid_batch::{self, BtreeScan, Scan, TidCase};
    use hotloops::study::{Case, Size, Study};
    use std::rc::Rc;
    let ks = rows("tid-batch/");
    assert_eq!(ks.len(), 2 * built().len());
    let info = tid_batch::info();
    let per_tid = info.baseline_variant();
    let c_rows: Vec<_> = info.variants.iter().filter(|v| v.is_c()).collect();
    // One row per (C kernel, built configuration), the canonical one under the plain id.
    assert_eq!(c_rows.len(), ks.len());
    for k in &ks {
        let r: Vec<_> = c_rows.iter().filter(|v| v.base_id() == k.id && v.config == k.config).collect();
        assert_eq!(r.len(), 1, "{} [{}]", k.id, k.config);
        let want = if k.config == ckernels::CANONICAL { k.id.to_string() } else { format!("{}@{}", k.id, k.config) };
        assert_eq!(r[0].id, want);
    }
    let check = |case: &mut TidCase, name: &str| {
        let (r, rn) = case.bitmap(per_tid).unwrap();
        let rv = case.value_with(per_tid.spec::<TidKernel>().unwrap(), per_tid.id).unwrap();
        for k in &ks {
            let (c, n) = case.c_bitmap(&tid_kernel(k)).unwrap();
            assert_eq!(n, rn, "{} [{}] on {name}: ntids", k.id, k.config);
            same_bitmap(&c, &r, &format!("{} on {name}", k.id));
            assert_eq!(case.value_with(&tid_kernel(k), k.id).unwrap(), rv, "{} [{}] on {name}: value", k.id, k.config);
            // A bitmap of another configuration is refused.
            if let Some(other) = built().into_iter().find(|&o| o != k.config) {
                let mut wrong = CTidBitmap::new(other, DEFAULT_WORK_MEM_BYTES).unwrap();
                assert!(case.run_c(&tid_kernel(k), &mut wrong).unwrap_err().to_string().contains("built under"));
            }
        }
        rn
    };
    // The study's B-tree cases at test size, through the rows (Case::run) too.
    for id in tid_batch::BTREE_CASES {
        let mut case = tid_batch::case_at_rows(info.case(id).unwrap(), 20_000).unwrap();
        let n = check(&mut case, id);
        assert!(n >= 10, "{id}");
        let want = case.run(per_tid).unwrap();
        for v in &c_rows {
            assert_eq!(case.run(v).unwrap(), want, "{} on {id}", v.id);
        }
        if id == "btree-lossy" {
            let (c, _) = case.c_bitmap(c_rows[0].spec::<TidKernel>().unwrap()).unwrap();
            assert!(c.heap_blocks().1 > 0, "btree-lossy must go lossy at test size: {:?}", c.info());
        }
    }
    // A C row on another AM's case is an error naming the B-tree cases, not a panic.
    let mut hash = tid_batch::STUDY.build(info.case("hash-many").unwrap(), Size::Test).unwrap();
    let e = hash.run(c_rows[0]).unwrap_err().to_string();
    assert!(e.contains("btree-many"), "{e}");
    // Edge indexes: empty, one TID, 291 tuples a heap page over leaf and batch boundaries
    // (1358 = one batch, 1359 one past), = ANY with absent keys; default and lossy work_mem.
    let heap291 = |n: usize, per: usize| {
        let e: Vec<_> = (0..n as i64).map(|k| (k, ItemPointer::new(k as u32 / 291, (k % 291 + 1) as u16))).collect();
        BTree::build(KeyType::Int8, &e, &leaf_sizes(n, per))
    };
    let edges: Vec<(&str, BTree, Vec<i64>)> = vec![
        ("empty", table3_col0_index(0), vec![]),
        ("one", table3_col0_index(1), vec![]),
        ("1358-per-366", heap291(1358, 366), vec![]),
        ("1359-per-366", heap291(1359, 366), vec![]),
        ("2717-per-291", heap291(2717, 291), vec![]),
        ("200k-lossy", heap291(200_000, 366), vec![]),
        ("any-absent", heap291(5_000, 366), vec![-1, 0, 290, 291, 1357, 1358, 4_999, 5_000, 5_000]),
        ("any-none", heap291(5_000, 366), vec![-5, 9_999]),
    ];
    for (name, rel, keys) in edges {
        let rel = Rc::new(rel);
        let tids = if keys.is_empty() { rel.len() } else { keys.iter().filter(|&&k| (0..rel.len() as i64).contains(&k)).collect::<std::collections::BTreeSet<_>>().len() };
        for wm in [DEFAULT_WORK_MEM_BYTES, 64 * 64] {
            let mut case = TidCase::new("edge", name.into(), Scan::Btree(BtreeScan::new(rel.clone(), keys.clone())), wm, Vec::new(), None);
            assert_eq!(check(&mut case, &format!("{name} at {wm} B")) as usize, tids, "{name}");
        }
    }
}
