//! Study `read-stream` side by side, scan time alone (page-cache preparation excluded):
//! every variant in every cache state, median of N runs, with its IO figures.
//!
//! ```text
//! cargo run --release --example read_stream -- [test|quick|full] [runs]
//! ```
//! `full` is the seed's 10M-row index (153 MiB under `$HOTLOOPS_DATA_DIR`, default
//! `target/hotloops-data`; written once).

use anyhow::{Result, bail};
use hotloops::pg::sink::TidDigest;
use hotloops::study::Size;
use hotloops::study::read_stream::{Backend, BloomScan, Cache, Method, ScanOutcome, index_for, scan_once};

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size = match args.first().map(String::as_str).unwrap_or("quick") {
        "test" => Size::Test,
        "quick" => Size::Quick,
        "full" => Size::Full,
        s => bail!("unknown size `{s}`: test, quick or full"),
    };
    let runs: usize = match args.get(1) {
        Some(r) => r.parse().map_err(|_| anyhow::anyhow!("runs must be a number, not `{r}`"))?,
        None => 5,
    };
    let (index, origin) = index_for(size)?;
    println!(
        "{} ({:?}): {} data pages, {:.1} MiB; median of {runs} runs, scan time only",
        index.path.display(),
        origin,
        index.data_pages(),
        index.len() as f64 / (1 << 20) as f64
    );
    let scan = BloomScan::new(index);
    let mut backend = Backend::default();
    if let Err(why) = backend.io_uring() {
        println!("io_uring unavailable: {why}; stream-io-uring is skipped");
    }
    for cache in Cache::ALL {
        println!(
            "\n{:<14} {:<28} {:>9} {:>10} {:>8} {:>8} {:>7} {:>6} {:>9} {:>9} {:>8}",
            cache.name(),
            "variant",
            "ms",
            "pages/s",
            "reads",
            "MiB",
            "waits",
            "inflt",
            "dev reads",
            "dev MiB",
            "speedup"
        );
        let mut base = None;
        let mut digest = None;
        for m in Method::ALL {
            if m == Method::StreamIoUring && backend.io_uring().is_err() {
                continue;
            }
            let mut outs: Vec<ScanOutcome> = Vec::new();
            for _ in 0..runs.max(1) {
                let mut d = TidDigest::new();
                match scan_once(&scan, m, cache, &mut backend, &mut d) {
                    Ok(o) => outs.push(o),
                    Err(e) if cache.direct() && outs.is_empty() && m == Method::SyncPerPage => {
                        println!("  skipped: {e:#}");
                        break;
                    }
                    Err(e) => return Err(e),
                }
                if *digest.get_or_insert(d.value()) != d.value() {
                    bail!("{} returned other TIDs than sync-per-page", m.id());
                }
            }
            if outs.is_empty() {
                break;
            }
            outs.sort_by_key(|o| o.elapsed);
            let med = outs[outs.len() / 2];
            let ms = med.elapsed.as_secs_f64() * 1e3;
            let b = *base.get_or_insert(ms);
            let (dr, db) = med.device.unwrap_or((0, 0));
            println!(
                "{:<14} {:<28} {:>9.1} {:>10.0} {:>8} {:>8.1} {:>7} {:>6} {:>9} {:>9.1} {:>7.2}x",
                "",
                m.id(),
                ms,
                scan.index.data_pages() as f64 / med.elapsed.as_secs_f64(),
                med.stats.read_calls,
                med.stats.bytes_read as f64 / (1 << 20) as f64,
                med.stats.waits,
                med.stats.max_ios_in_flight,
                dr,
                db as f64 / (1 << 20) as f64,
                b / ms
            );
        }
    }
    Ok(())
}
