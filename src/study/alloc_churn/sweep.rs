//! What one point of the alloc-churn sweep measures: variant `v` at N partitions, the
//! partitions scanned in one [`ScanForm`], in a fresh
//! process (a `point` request), after the variant's settings and the workload build; the
//! partition grids; glibc's trim probe before and after the setup, so a point whose process
//! was not fresh shows it. Timing the queries and counting their faults is `crate::measure`'s;
//! running the grid, one process a point, and the files are `crate::report::sweep`'s.

use super::{Backend, INFO, SEED_KEY, ScanForm, Workload};
use crate::pg::mcxt::glibc::{self, TrimProbe};
use crate::pg::workload::PGBENCH_ROWS_PER_SCALE;
use crate::study::{Size, Variant};
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The swept parameter.
pub const PARAMETER: &str = "partitions";

/// Warm-up of a point: at least this many queries...
pub const WARMUP_QUERIES: u32 = 5;
/// ...and at least this many ms.
pub const WARMUP_MS: u64 = 5;

/// How long to measure a point.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct PointConfig {
    /// Rows.
    pub accounts: u64,
    /// Query constant.
    pub key: i64,
    /// Target timed duration, ms.
    pub target_ms: u64,
    /// Fewest timed queries.
    pub min_queries: u32,
    /// Most timed queries.
    pub max_queries: u32,
}

/// What to sweep.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepConfig {
    /// Partition counts, ascending.
    pub grid: Vec<usize>,
    /// Variant ids.
    pub variants: Vec<String>,
    /// Scan forms, each swept over every variant and N (older files: index-only alone).
    #[serde(default = "index_only")]
    pub forms: Vec<ScanForm>,
    /// Per point.
    pub point: PointConfig,
}

impl SweepConfig {
    /// Every N up to 12 (the cliff is near 4), then coarser to 200.
    pub fn full() -> SweepConfig {
        let mut grid: Vec<usize> = (1..=12).collect();
        grid.extend([14, 16, 20, 24, 32, 40, 48, 64, 80, 100, 128, 160, 200]);
        SweepConfig {
            grid,
            variants: INFO.variants.iter().map(|v| v.id.to_string()).collect(),
            forms: ScanForm::ALL.to_vec(),
            point: PointConfig { accounts: PGBENCH_ROWS_PER_SCALE, key: SEED_KEY, target_ms: 60, min_queries: 30, max_queries: 20_000 },
        }
    }

    /// A shorter sweep for `--quick` and tests (10 ms a point: both scan forms fit the quick
    /// report's budget; faults a query are exact counts whatever the duration).
    pub fn quick() -> SweepConfig {
        let mut grid: Vec<usize> = (1..=8).collect();
        grid.extend([10, 12, 16, 24, 32, 48, 64, 100, 128, 200]);
        SweepConfig {
            grid,
            variants: INFO.variants.iter().map(|v| v.id.to_string()).collect(),
            forms: ScanForm::ALL.to_vec(),
            point: PointConfig { accounts: PGBENCH_ROWS_PER_SCALE, key: SEED_KEY, target_ms: 10, min_queries: 20, max_queries: 5_000 },
        }
    }

    /// The sweep a report at `size` runs for its rows: the seconds-long one at test size.
    pub fn for_size(size: Size) -> SweepConfig {
        match size {
            Size::Full => SweepConfig::full(),
            Size::Quick => SweepConfig::quick(),
            Size::Test => {
                let mut c = SweepConfig::quick();
                c.grid = vec![1, 4, 5, 6, 100];
                c.point.accounts = 10_000;
                c.point.target_ms = 5;
                c.point.min_queries = 5;
                c
            }
        }
    }
}

fn index_only() -> Vec<ScanForm> {
    vec![ScanForm::IndexOnly]
}

/// A point ready to time: the backend, and glibc's trim probe before and after its setup.
pub struct PointSetup {
    /// The variant's backend over N partitions; [`Backend::query`] is what is timed.
    pub backend: Backend,
    /// The trim probe in the fresh process, before any setting or workload.
    pub trim_fresh: Option<TrimProbe>,
    /// The probe after the variant's settings and the workload build.
    pub trim_ready: Option<TrimProbe>,
}

/// Set up variant `v` at `n` partitions scanned in `form` in this process (which must be
/// fresh: a worker).
pub fn prepare(v: &'static Variant, n: usize, form: ScanForm, cfg: &PointConfig) -> Result<PointSetup> {
    let trim_fresh = glibc::probe();
    let workload = Arc::new(Workload::pgbench(cfg.accounts, n)?);
    let backend = Backend::with_form(v, workload, cfg.key, form)?;
    Ok(PointSetup { backend, trim_fresh, trim_ready: glibc::probe() })
}

/// The C library's name and version.
pub fn libc_version() -> String {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: glibc returns a static NUL-terminated string.
        let v = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) };
        format!("glibc {}", v.to_string_lossy())
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        "not glibc".to_string()
    }
}
