use hotloops::pg::sink::TidSink;
use hotloops::pg::tidbitmap::TidBitmap;
use hotloops::pg::workload::heap_tid;

#[test]
fn seed_table_at_2mb_and_4mb() {
    for (mb, want) in [(2usize, (21_093u64, 32_962u64)), (4, (54_055, 0))] {
        let mut t = TidBitmap::new(mb << 20);
        for g in 0..10_000_000u64 {
            t.add_tuples(&[heap_tid(g, 185)], false);
        }
        eprintln!("{mb} MB: {:?} nentries {} max {} size {:?} peak {}", t.heap_blocks(), t.nentries(), t.maxentries(), t.pagetable().map(|p| p.size()), t.peak_bytes());
        assert_eq!(t.heap_blocks(), want);
    }
}
