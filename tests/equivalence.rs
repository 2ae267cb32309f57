//! Every variant against its baseline: identical output and final cursor state, on random
//! inputs and on the edges (empty scans, one item, empty leaves, full 1358-item pages, batch
//! boundaries, ranges off either end).

use hotloops::pg::ItemPointer;
use hotloops::pg::nbtree::{BTScanPos, BTScanPosItem, BTree, KeyType, MAX_TIDS_PER_BTREE_PAGE};
use hotloops::pg::sink::{TidDigest, TidSink, TidVec};
use hotloops::pg::tidbitmap::{DEFAULT_WORK_MEM_BYTES, TidBitmap};
use hotloops::pg::workload::{TABLE3_TUPLES_PER_PAGE, heap_tid};
use hotloops::study::dir_by_value::{RangeCase, expected_range};
use hotloops::study::local_index::{self, BATCH_CAPACITY, Outcome, ScanCase};
use hotloops::study::{Case, Size, Study, dir_by_value};
use proptest::prelude::*;
use std::sync::Arc;

fn heap_index(per_leaf: &[usize]) -> (BTree, Vec<ItemPointer>) {
    let n: usize = per_leaf.iter().sum();
    let entries: Vec<(i64, ItemPointer)> = (0..n as u64).map(|g| (g as i64, heap_tid(g, TABLE3_TUPLES_PER_PAGE))).collect();
    let tids = entries.iter().map(|e| e.1).collect();
    (BTree::build(KeyType::Int8, &entries, per_leaf), tids)
}

/// Run every local-index variant over a whole scan and check they agree with each other and
/// with the index's TIDs in order, batch by batch.
fn check_local_index(per_leaf: &[usize]) -> Result<(), TestCaseError> {
    let (rel, expected) = heap_index(per_leaf);
    let mut case = ScanCase::new(rel);
    let info = local_index::info();
    let base = case.outcome(info.baseline_variant()).unwrap();
    // Every field but the number of flushes: `c-span` flushes at span boundaries, the others
    // when the batch is full; the TIDs, their order and the cursor are the same.
    let same = |o: Outcome| Outcome { sink: TidDigest { calls: 0, ..o.sink }, ..o };
    for v in info.variants {
        let o = case.outcome(v).unwrap();
        prop_assert_eq!(same(o), same(base), "{} differs from store-each on leaves {:?}", v.id, per_leaf);
        case.position();
        let mut got = TidVec::default();
        let n = case.run_from_position(v, &mut got).unwrap();
        prop_assert_eq!(n as usize, expected.len());
        prop_assert_eq!(&got.0, &expected, "{} TIDs", v.id);
    }
    let batches = expected.len().div_ceil(BATCH_CAPACITY) as u64;
    prop_assert_eq!(base.sink.calls, batches, "one tbm_add_tuples call per full batch plus the residual");
    // The same scan into the TIDBitmap (case table3-bitmap): every variant builds the bitmap
    // that one tbm_add_tuples call per TID builds.
    let mut want = TidBitmap::new(DEFAULT_WORK_MEM_BYTES);
    for t in &expected {
        want.add_tuples(std::slice::from_ref(t), false);
    }
    case.into_bitmap = Some(DEFAULT_WORK_MEM_BYTES);
    let mut in_memory = vec![];
    for v in info.variants {
        let o = case.outcome(v).unwrap();
        prop_assert_eq!(o.bitmap, Some(want.digest()), "{} into the bitmap on leaves {:?}", v.id, per_leaf);
        prop_assert_eq!(o.ntids as usize, expected.len());
        in_memory.push(o);
    }
    // The same index read as the server reads it (case table3-server: _bt_first's descent,
    // shared buffers, 18's _bt_readpage with col0 < 10000000): every variant builds the same
    // bitmap from the same TIDs as on the in-memory leaves, and every variant leaves the
    // server's end state, currPos invalidated (the in-memory step keeps the last page's).
    let mut server = ScanCase::through_shared_buffers(heap_index(per_leaf).0);
    server.into_bitmap = Some(DEFAULT_WORK_MEM_BYTES);
    let server_base = server.outcome(info.baseline_variant()).unwrap();
    prop_assert_eq!((server_base.item_index, server_base.last_item, server_base.curr_page), (0, -1, u32::MAX), "the server's scan ends with currPos invalid");
    for (v, want) in info.variants.iter().zip(in_memory) {
        let o = server.outcome(v).unwrap();
        prop_assert_eq!((o.ntids, o.sink, o.bitmap), (want.ntids, want.sink, want.bitmap), "{} through shared buffers on leaves {:?}", v.id, per_leaf);
        prop_assert_eq!(o, server_base, "{} through shared buffers on leaves {:?}", v.id, per_leaf);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn local_index_variants_agree(per_leaf in prop::collection::vec(prop_oneof![Just(0usize), Just(1), Just(366), 0usize..=366], 0..12)) {
        check_local_index(&per_leaf)?;
    }

    #[test]
    fn dir_by_value_variants_agree(
        accounts in 1u64..2_500,
        per in prop_oneof![Just(1usize), Just(366), 2usize..=366],
        ranges in prop::collection::vec((-3i64..2_600, 0i64..1_200), 1..6),
        min_keys in 0i32..=1,
    ) {
        let entries: Vec<(i64, ItemPointer)> = (0..accounts).map(|g| (g as i64 + 1, heap_tid(g, 61))).collect();
        let sizes = hotloops::pg::workload::leaf_sizes(entries.len(), per);
        let rel = Arc::new(BTree::build(KeyType::Int4, &entries, &sizes));
        let ranges: Vec<(i64, i64)> = ranges.into_iter().map(|(lo, len)| (lo, lo + len)).collect();
        let mut case = RangeCase::new(rel.clone(), accounts, 0, ranges.clone(), min_keys);
        let mut oracle = TidDigest::new();
        for &(lo, hi) in &ranges {
            for t in expected_range(&rel, lo, hi) {
                oracle.push(t, false);
            }
        }
        let info = dir_by_value::info();
        let base = case.outcome(info.baseline_variant()).unwrap();
        prop_assert_eq!(base.digest, oracle, "opaque returns exactly the keys in range, in order");
        prop_assert_eq!(case.items(), oracle.count);
        for v in info.variants {
            let other = case.outcome(v).unwrap();
            prop_assert_eq!(&other, &base, "{} differs from opaque", v.id);
        }
    }
}

#[test]
fn local_index_edges() {
    for leaves in [
        vec![],                         // no leaf at all
        vec![0],                        // one empty leaf
        vec![1],                        // one TID
        vec![0, 0, 1, 0],               // empty leaves around one TID
        vec![366, 366, 366, 260],       // exactly one batch (1358)
        vec![366, 366, 366, 261],       // one past a batch
        vec![366, 366, 366, 259],       // one short of a batch
        vec![366; 8],                   // 2928: two full batches and a residual
    ] {
        check_local_index(&leaves).unwrap_or_else(|e| panic!("{leaves:?}: {e}"));
    }
}

/// A `BTScanPos` full to `MaxTIDsPerBTreePage` (no real 16-byte-tuple leaf holds that many;
/// posting lists can come close), entered at several cursor positions.
#[test]
fn local_index_full_1358_item_page() {
    let (rel, _) = heap_index(&[]);
    let mut case = ScanCase::new(rel);
    let mut pos = BTScanPos::invalid();
    for (i, it) in pos.items.iter_mut().enumerate() {
        *it = BTScanPosItem { heap_tid: ItemPointer::new(i as u32 / 7, (i % 7) as u16 + 1), index_offset: i as u16 + 1, tuple_offset: 0 };
    }
    pos.first_item = 0;
    pos.last_item = MAX_TIDS_PER_BTREE_PAGE as i32 - 1;
    pos.next_page = 0;
    for start in [0, 1, 700, 1357] {
        pos.item_index = start;
        let mut results = vec![];
        for v in local_index::info().variants {
            case.position_at(&pos);
            let mut got = TidVec::default();
            let n = case.run_from_position(v, &mut got).unwrap();
            assert_eq!(n as usize, 1358 - start as usize);
            let want: Vec<_> = pos.items[start as usize..].iter().map(|i| i.heap_tid).collect();
            assert_eq!(got.0, want, "{} from {start}", v.id);
            results.push((got.0, n));
        }
        assert!(results.windows(2).all(|w| w[0] == w[1]));
    }
}

#[test]
fn every_study_case_agrees_at_test_size() {
    for s in hotloops::study::STUDIES {
        let info = s.info();
        for spec in info.cases {
            let mut c = match s.build(spec, Size::Test) {
                Ok(c) => c,
                Err(e) if e.downcast_ref::<hotloops::study::CaseUnavailable>().is_some() => {
                    eprintln!("{}/{}: {e}", info.name, spec.id);
                    continue;
                }
                Err(e) => panic!("{}/{}: {e:#}", info.name, spec.id),
            };
            let base = c.run(info.baseline_variant()).unwrap();
            for v in info.variants {
                if !v.runs_on(spec.id) {
                    // A row restricted to some cases says so instead of running.
                    assert!(c.run(v).unwrap_err().to_string().contains("does not run on case"), "{}", v.id);
                    continue;
                }
                assert_eq!(c.run(v).unwrap(), base, "{} / {}: {} differs from the baseline", info.name, spec.id, v.id);
            }
        }
    }
}

#[test]
fn pipelines_follow_the_features() {
    use hotloops::study::dir_by_value::DirByValue;
    use hotloops::study::local_index::LocalIndex;
    let li = LocalIndex.info();
    let want = if cfg!(feature = "local-index") { li.patched } else { li.baseline };
    assert_eq!(li.pipeline_variant().id, want);
    let (rel, tids) = heap_index(&[366, 5]);
    let mut case = ScanCase::new(rel);
    assert_eq!(local_index::pipeline(&mut case).unwrap().ntids as usize, tids.len());
    let dv = DirByValue.info();
    assert_eq!(dv.pipeline_variant().id, if cfg!(feature = "dir-by-value") { dv.patched } else { dv.baseline });
    let rel = Arc::new(hotloops::pg::workload::pgbench_accounts_pkey(5_000));
    let mut rc = RangeCase::new(rel, 5_000, 2_000, vec![(10, 2_009)], 0);
    assert_eq!(dir_by_value::pipeline(&mut rc).unwrap().digest.count, 2_000);
}
