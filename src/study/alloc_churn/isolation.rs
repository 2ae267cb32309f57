//! Where an alloc-churn variant may run, and the worker that serves one variant's queries in
//! a heap of its own (a `serve` request of the one worker protocol, `crate::host::worker`);
//! the `probe` and `sequence` requests that the isolation tests send.

use super::{Backend, ChurnCase, SEED_KEY, Workload, variant_row};
use crate::host::worker::{Message, Request, Server, Worker};
use crate::pg::mcxt::glibc;
use crate::study::Variant;
use anyhow::{Context, Result, anyhow, bail};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The process's glibc state, as far as this study has changed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Claim {
    /// No alloc-churn variant has run here.
    Pristine,
    /// Variants with glibc's default settings have run here.
    Shared,
    /// This variant's mallopt settings were applied here: for good.
    Tuned(&'static str),
}

static CLAIM: Mutex<Claim> = Mutex::new(Claim::Pristine);

/// Where a variant runs in this process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// In this process.
    InProcess,
    /// In a worker process of its own.
    Worker,
}

/// Decide (and record) where variant `v` runs: a mallopt variant in-process only as the
/// first alloc-churn variant of the process, which then belongs to it; any other variant
/// in-process unless the process belongs to a mallopt variant.
pub fn place(v: &'static Variant) -> Result<Placement> {
    let spec = super::spec(v)?;
    let mut c = CLAIM.lock().map_err(|_| anyhow!("alloc-churn placement lock poisoned"))?;
    Ok(match (*c, spec.mallopt) {
        (Claim::Tuned(w), _) if w == v.id => Placement::InProcess,
        (Claim::Tuned(_), _) => Placement::Worker,
        (Claim::Pristine, Some(m)) => {
            glibc::apply(&m).with_context(|| format!("{}: applying its malloc settings", v.id))?;
            *c = Claim::Tuned(v.id);
            Placement::InProcess
        }
        (Claim::Shared, Some(_)) => Placement::Worker,
        (_, None) => {
            *c = Claim::Shared;
            Placement::InProcess
        }
    })
}

/// Has this process taken a mallopt variant's settings? (Some(variant id))
pub fn tuned_for() -> Option<&'static str> {
    match *CLAIM.lock().ok()? {
        Claim::Tuned(v) => Some(v),
        _ => None,
    }
}

/// A worker process serving one variant's queries: `run` -> digest.
pub struct Served {
    worker: Worker,
    /// Median of 20 `ping` round trips at start: the pipe's share of every `run`.
    pub round_trip: Duration,
}

impl Served {
    /// Start a worker for variant `v` over `accounts` rows in `partitions` partitions,
    /// `queries` queries per `run`, querying `bid = key`.
    pub fn start(v: &'static Variant, accounts: u64, partitions: usize, queries: u32, key: i64) -> Result<Served> {
        let mut worker = Worker::start(&Request::Serve { variant: v.id.to_string(), accounts, partitions, queries, key })?;
        let ready: String = worker.reply()?;
        if ready != format!("ready {}", v.id) {
            bail!("the worker for {} said `{ready}` instead of `ready {}`", v.id, v.id);
        }
        let mut trips = Vec::with_capacity(20);
        for _ in 0..20 {
            let t = Instant::now();
            let pong: String = worker.call(Message::Ping)?;
            if pong != "pong" {
                bail!("the worker for {} answered a ping with `{pong}`", v.id);
            }
            trips.push(t.elapsed());
        }
        trips.sort();
        Ok(Served { worker, round_trip: trips[trips.len() / 2] })
    }

    /// Run one batch of queries in the worker; its digest.
    pub fn run(&mut self) -> Result<u64> {
        self.worker.call(Message::Run)
    }

    /// The worker's process id.
    pub fn pid(&self) -> u32 {
        self.worker.pid()
    }
}

/// The `serve` request: build the backend, reply `ready <id>`, then answer `run` and `ping`
/// until `quit` or the end of stdin.
pub fn serve(server: &mut Server, variant: &str, accounts: u64, partitions: usize, queries: u32, key: i64) -> Result<()> {
    let v = variant_row(variant)?;
    let mut b = Backend::new(v, Arc::new(Workload::pgbench(accounts, partitions)?), key)?;
    server.ok(&format!("ready {}", v.id))?;
    while let Some(m) = server.message()? {
        match m {
            Message::Run => server.ok(&b.run_queries(queries))?,
            Message::Ping => server.ok(&"pong")?,
            Message::Quit => break,
        }
    }
    Ok(())
}

/// The `probe` request: glibc's trim probe of this process, after freeing an mmap'd chunk of
/// `free_mmap` bytes first if asked (which raises glibc's thresholds for good).
pub fn probe(free_mmap: Option<usize>) -> Result<Option<glibc::TrimProbe>> {
    if let Some(n) = free_mmap {
        // SAFETY: a malloc/free pair; the block is touched within its size.
        unsafe {
            let p = std::hint::black_box(libc::malloc(n));
            if p.is_null() {
                bail!("malloc({n}) failed");
            }
            std::ptr::write_bytes(p.cast::<u8>(), 1, n);
            libc::free(p);
        }
    }
    Ok(glibc::probe())
}

/// What a `sequence` request answers.
#[derive(Debug, Serialize, Deserialize)]
pub struct SequenceReport {
    /// (variant id, placement, digest) in order.
    pub runs: Vec<(String, String, u64)>,
    /// The trim probe of this process afterwards.
    pub probe: Option<glibc::TrimProbe>,
}

/// The `sequence` request: run `variants` in order through one case of `partitions`
/// partitions in this process (dedicated to `dedicate` first, as `hotloops run` does), then
/// probe.
pub fn sequence(variants: &[String], partitions: usize, dedicate: Option<&str>) -> Result<SequenceReport> {
    if let Some(d) = dedicate {
        crate::study::dedicate_process(variant_row(d)?.id);
    }
    let rows: Vec<&'static Variant> = variants.iter().map(|n| variant_row(n)).collect::<Result<_>>()?;
    let mut case = ChurnCase::new(10_000, partitions, 2, SEED_KEY)?;
    let mut runs = Vec::new();
    for v in rows {
        let d = case.try_run(v)?;
        let p = case.placement(v).map(|p| format!("{p:?}")).unwrap_or_default();
        runs.push((v.id.to_string(), p, d));
    }
    // Drop the workers first so the probe sees only this process.
    drop(case);
    Ok(SequenceReport { runs, probe: glibc::probe() })
}
