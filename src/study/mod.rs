//! The studies: one file each, variants side by side, and this registry.
//!
//! Adding a study is one new file that defines a `static` implementing [`Study`] plus one line
//! in [`STUDIES`]. A variant's slash-namespaced id (`local-index/store-each`) is the same in
//! bench names, asm snapshot paths, callgrind toggles, report rows and CLI arguments; its
//! kernel's stable symbol is [`symbol_of`] the id.
//!
//! Symbol convention: an entry kernel is `hotloops_<id>` (unmangled, `#[inline(never)]`); the
//! out-of-line helpers it calls are `hl_<...>`, never `hotloops_...`, so that the callgrind
//! toggle glob `hotloops_*` (the instruction benches) switches on exactly at the entry of the
//! kernel being measured, and a kernel's construction never enters a kernel.

pub mod alloc_churn;
pub mod dir_by_value;
pub mod local_index;
pub mod read_stream;
pub mod tid_batch;

use std::fmt;
use std::sync::OnceLock;

/// One variant of a study's hot loop.
#[derive(Debug)]
pub struct Variant {
    /// Slash-namespaced id, `study/variant`.
    pub id: &'static str,
    /// What this variant changes, in a line.
    pub summary: &'static str,
    /// Out-of-line helper symbols (`hl_*`) that belong to the kernel, snapshotted after it.
    pub helpers: &'static [&'static str],
}

/// What a study is about; shown by `hotloops list` and in every report.
#[derive(Debug)]
pub struct StudyInfo {
    /// Study name (the id prefix).
    pub name: &'static str,
    /// The seed mail it comes from.
    pub seed: &'static str,
    /// The claim it tests.
    pub claim: &'static str,
    /// The numbers the seed reported.
    pub seed_numbers: &'static str,
    /// Cargo feature that switches the pipeline to `patched`.
    pub feature: &'static str,
    /// Variant id of the unpatched baseline.
    pub baseline: &'static str,
    /// Variant id the feature selects.
    pub patched: &'static str,
    /// What one item is (per-item normalisation): "TID", "tuple", ...
    pub unit: &'static str,
    /// All variants, baseline first.
    pub variants: &'static [Variant],
}

/// How big a workload to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Size {
    /// Seconds-long unit and property tests.
    Test,
    /// A short run for PR review (`--quick`).
    Quick,
    /// The seed's own scale where memory allows.
    Full,
}

/// One prepared workload of a study: every variant runs the same input.
pub trait Case {
    /// Case name, unique within the study (`heap-order-10M`, `range-15000/0-keys`).
    fn name(&self) -> String;
    /// What the workload is, with the numbers that explain it.
    fn describe(&self) -> String;
    /// Items (TIDs, tuples) one `run` processes; the per-item normaliser.
    fn items(&self) -> u64;
    /// Run variant `v` (index into `StudyInfo::variants`) once over the whole case and return
    /// a digest of its output and final state; equal digests mean equal results. An error
    /// (a data file that cannot be read, a cache state that cannot be set up, a bitmap that
    /// raised its ERROR) has no number to give and ends the measurement with its message.
    fn run(&mut self, v: usize) -> anyhow::Result<u64>;
    /// The seed's own ratio (variant time / baseline time) for this case and variant, where
    /// the seed reported one, printed beside the measured ratio.
    fn seed_ratio(&self, _v: usize) -> Option<f64> {
        None
    }
    /// Study-specific figures of variant `v` (peak memory, page faults, read calls...):
    /// (metric, value, unit). Called once per variant per report.
    fn extra_metrics(&mut self, _v: usize) -> anyhow::Result<Vec<(String, f64, String)>> {
        Ok(Vec::new())
    }
}

/// A study: its description and its workloads.
pub trait Study: Sync {
    /// Static description.
    fn info(&self) -> &'static StudyInfo;
    /// The workloads at `size`.
    fn cases(&self, size: Size) -> Vec<Box<dyn Case>>;
}

/// Every study, in the order reports list them.
pub static STUDIES: &[&dyn Study] = &[&local_index::STUDY, &dir_by_value::STUDY, &tid_batch::STUDY, &read_stream::STUDY, &alloc_churn::STUDY];

static DEDICATED: OnceLock<String> = OnceLock::new();

/// Declare that this process runs only variant `id` (`hotloops run`, `hotloops counters`).
/// A study whose results depend on process-wide state (alloc-churn: the malloc heap) runs
/// variants in fresh processes unless the process is dedicated to that variant. The first
/// call wins.
pub fn dedicate_process(id: &str) {
    let _ = DEDICATED.set(id.to_string());
}

/// The variant this process is dedicated to, if any.
pub fn dedicated_variant() -> Option<&'static str> {
    DEDICATED.get().map(String::as_str)
}

/// The stable, unmangled symbol of a variant's kernel: `hotloops_` + the id with `/` and `-`
/// turned into `_`.
pub fn symbol_of(id: &str) -> String {
    format!("hotloops_{}", id.replace(['/', '-'], "_"))
}

/// Snapshot path of a variant, relative to `asm-snapshots/`: `study/variant.s`.
pub fn snapshot_path(id: &str) -> String {
    format!("{id}.s")
}

/// A name the user gave that matches nothing; its message lists the valid names.
#[derive(Debug)]
pub struct UnknownName {
    /// What kind of name.
    pub kind: &'static str,
    /// What was given.
    pub given: String,
    /// The valid names.
    pub valid: Vec<String>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} `{}`; valid {}s are:", self.kind, self.given, self.kind)?;
        for v in &self.valid {
            write!(f, "\n  {v}")?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownName {}

/// All variant ids.
pub fn all_ids() -> Vec<&'static str> {
    STUDIES.iter().flat_map(|s| s.info().variants.iter().map(|v| v.id)).collect()
}

/// Find a study by name.
pub fn study(name: &str) -> Result<&'static dyn Study, UnknownName> {
    STUDIES.iter().copied().find(|s| s.info().name == name).ok_or_else(|| UnknownName {
        kind: "study",
        given: name.to_string(),
        valid: STUDIES.iter().map(|s| s.info().name.to_string()).collect(),
    })
}

/// Find a variant by id: its study and index.
pub fn variant(id: &str) -> Result<(&'static dyn Study, usize), UnknownName> {
    for s in STUDIES {
        if let Some(i) = s.info().variants.iter().position(|v| v.id == id) {
            return Ok((*s, i));
        }
    }
    Err(UnknownName {
        kind: "variant id",
        given: id.to_string(),
        valid: all_ids().into_iter().map(String::from).collect(),
    })
}

impl StudyInfo {
    /// Index of a variant id within this study.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.variants.iter().position(|v| v.id == id)
    }

    /// The variant the pipeline runs in this build (the feature on or off).
    pub fn pipeline_variant(&self) -> &'static str {
        if crate::features_enabled().contains(&self.feature) { self.patched } else { self.baseline }
    }
}
