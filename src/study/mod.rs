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

use std::any::Any;
use std::fmt;
use std::sync::OnceLock;

/// What a variant's row hands its study's cases: the kernel to call (a function pointer) and
/// the setup that distinguishes the variant. Each study has its own type; a case downcasts
/// the row's spec to it ([`Variant::spec`]), so dispatch is the row's data, never a `match`
/// on a position.
pub trait Kernel: Any + Sync {
    /// Address of the kernel entry this spec calls: the registry test resolves it to a symbol
    /// in the binary and checks it against the row's `kernel`.
    fn entry(&self) -> usize;
}

/// One variant of a study's hot loop: one row, the only place its facts are written.
pub struct Variant {
    /// Slash-namespaced id, `study/variant`: the name in the CLI, bench names, report rows,
    /// child processes and files.
    pub id: &'static str,
    /// What this variant changes, in a line.
    pub summary: &'static str,
    /// The kernel's stable, unmangled symbol (`hotloops_...`). Variants that differ only in
    /// setup share one kernel, and one asm snapshot keyed by it.
    pub kernel: &'static str,
    /// Out-of-line helper symbols (`hl_*`) that belong to the kernel, snapshotted after it.
    pub helpers: &'static [&'static str],
    /// The setup that distinguishes a variant sharing a kernel ("" when the kernel does).
    pub setup: &'static str,
    /// The C configuration a C kernel was built under (`gcc12-pg`, see [`crate::ckernels`]);
    /// "" for a Rust kernel.
    pub config: &'static str,
    /// The case ids this row runs on; empty: every case of its study. (The tid-batch C
    /// kernels are btgetbitmap's loop: they run on the B-tree cases only.)
    pub cases: &'static [&'static str],
    /// The kernel and setup the study's cases run.
    pub spec: &'static dyn Kernel,
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Variant").field("id", &self.id).field("kernel", &self.kernel).finish_non_exhaustive()
    }
}

impl Variant {
    /// A row whose kernel is its own: `kernel` must be [`symbol_of`] `id` (checked at compile
    /// time when the row is a `static`).
    pub const fn new(id: &'static str, summary: &'static str, kernel: &'static str, spec: &'static dyn Kernel) -> Variant {
        assert!(is_symbol_of(id, kernel), "a variant's kernel symbol must be symbol_of(its id)");
        Variant { id, summary, kernel, helpers: &[], setup: "", config: "", cases: &[], spec }
    }

    /// A row whose kernel is a C function of `csrc/` built under configuration `config`
    /// (`gcc12-pg`): `kernel` must be [`symbol_of`] `id` + `__` + the configuration with `-`
    /// as `_` (checked at compile time). The canonical configuration's row has the plain id
    /// (`local-index/c-span`); another configuration's row is `<id>@<config>`
    /// (`local-index/c-span@gcc12-strict`), so every (kernel, configuration) is a row that
    /// ids, worker processes and callgrind resolve, and `--config` selects by [`Variant::config`].
    pub const fn c(id: &'static str, summary: &'static str, config: &'static str, kernel: &'static str, spec: &'static dyn Kernel) -> Variant {
        assert!(is_c_symbol_of(id, config, kernel), "a C variant's kernel symbol must be symbol_of(its id)__<config>");
        Variant { id, summary, kernel, helpers: &[], setup: "", config, cases: &[], spec }
    }

    /// A row that runs another variant's kernel (`owner`'s) with a different setup.
    pub const fn sharing(
        id: &'static str,
        summary: &'static str,
        owner: &'static str,
        kernel: &'static str,
        setup: &'static str,
        spec: &'static dyn Kernel,
    ) -> Variant {
        assert!(is_symbol_of(owner, kernel), "a shared kernel's symbol must be symbol_of(its owner's id)");
        assert!(!setup.is_empty(), "a variant sharing a kernel must say what its setup changes");
        Variant { id, summary, kernel, helpers: &[], setup, config: "", cases: &[], spec }
    }

    /// The same row with its out-of-line helpers.
    pub const fn helpers(mut self, helpers: &'static [&'static str]) -> Variant {
        self.helpers = helpers;
        self
    }

    /// The same row, run on these cases only.
    pub const fn only_cases(mut self, cases: &'static [&'static str]) -> Variant {
        self.cases = cases;
        self
    }

    /// Does this row run on case `case` of its study?
    pub fn runs_on(&self, case: &str) -> bool {
        self.cases.is_empty() || self.cases.contains(&case)
    }

    /// An error for a case this row does not run on, naming the ones it does; Ok otherwise.
    pub fn check_runs_on(&self, case: &str) -> anyhow::Result<()> {
        if self.runs_on(case) {
            return Ok(());
        }
        anyhow::bail!("{} does not run on case `{case}`; it runs on: {}", self.id, self.cases.join(", "))
    }

    /// The study's spec type of this row; an error if the row belongs to another study.
    pub fn spec<T: Kernel>(&self) -> anyhow::Result<&'static T> {
        let any: &'static dyn Any = self.spec;
        any.downcast_ref::<T>()
            .ok_or_else(|| anyhow::anyhow!("{} is not a variant of this study (its spec is another study's type)", self.id))
    }

    /// The id without a configuration suffix (`local-index/c-span` of
    /// `local-index/c-span@gcc12-strict`): the C kernel's id in [`crate::ckernels`].
    pub fn base_id(&self) -> &'static str {
        self.id.split_once('@').map_or(self.id, |(b, _)| b)
    }

    /// The short name (`store-each` of `local-index/store-each`).
    pub fn short(&self) -> &'static str {
        self.id.split_once('/').map_or(self.id, |(_, s)| s)
    }

    /// The symbols of its asm snapshot: the kernel, then its helpers.
    pub fn symbols(&self) -> Vec<&'static str> {
        std::iter::once(self.kernel).chain(self.helpers.iter().copied()).collect()
    }

    /// Does this row own its kernel (the kernel is named after it)?
    pub fn owns_kernel(&self) -> bool {
        self.is_c() || symbol_of(self.id) == self.kernel
    }

    /// Is the kernel a C function of `csrc/` (snapshotted from the compiler's `-S` output)?
    pub fn is_c(&self) -> bool {
        !self.config.is_empty()
    }

    /// `symbol` as a C snapshot names it: without the configuration's `__<config>` suffix.
    pub fn snapshot_symbol<'a>(&self, symbol: &'a str) -> &'a str {
        if !self.is_c() {
            return symbol;
        }
        let suffix = format!("__{}", self.config.replace('-', "_"));
        symbol.strip_suffix(suffix.as_str()).unwrap_or(symbol)
    }
}

/// `symbol == "hotloops_" + id` with `/` and `-` as `_`, in a `const fn` (compile-time checks).
pub const fn is_symbol_of(id: &str, symbol: &str) -> bool {
    const PREFIX: &[u8] = b"hotloops_";
    let (id, sym) = (id.as_bytes(), symbol.as_bytes());
    if sym.len() != PREFIX.len() + id.len() {
        return false;
    }
    let mut i = 0;
    while i < PREFIX.len() {
        if sym[i] != PREFIX[i] {
            return false;
        }
        i += 1;
    }
    let mut j = 0;
    while j < id.len() {
        let c = if id[j] == b'/' || id[j] == b'-' { b'_' } else { id[j] };
        if sym[PREFIX.len() + j] != c {
            return false;
        }
        j += 1;
    }
    true
}

/// `symbol == symbol_of(id) + "__" + config` with `-` as `_`, in a `const fn`; an id
/// `<base>@<config>` must name the same configuration, and its base is what the symbol spells.
pub const fn is_c_symbol_of(id: &str, config: &str, symbol: &str) -> bool {
    let (sym, cfg, full) = (symbol.as_bytes(), config.as_bytes(), id.as_bytes());
    // The id up to its `@`, if any; the rest must be `@config`.
    let mut at = 0;
    while at < full.len() && full[at] != b'@' {
        at += 1;
    }
    if at < full.len() {
        if full.len() - at - 1 != cfg.len() {
            return false;
        }
        let mut k = 0;
        while k < cfg.len() {
            if full[at + 1 + k] != cfg[k] {
                return false;
            }
            k += 1;
        }
    }
    let base = "hotloops_".len() + at;
    if sym.len() != base + 2 + cfg.len() || cfg.is_empty() {
        return false;
    }
    // The base part, checked as is_symbol_of does on the prefix of `symbol`.
    let prefix = b"hotloops_";
    let mut i = 0;
    while i < prefix.len() {
        if sym[i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    let idb = full;
    let mut j = 0;
    while j < at {
        let c = if idb[j] == b'/' || idb[j] == b'-' { b'_' } else { idb[j] };
        if sym[prefix.len() + j] != c {
            return false;
        }
        j += 1;
    }
    if sym[base] != b'_' || sym[base + 1] != b'_' {
        return false;
    }
    let mut k = 0;
    while k < cfg.len() {
        let c = if cfg[k] == b'-' { b'_' } else { cfg[k] };
        if sym[base + 2 + k] != c {
            return false;
        }
        k += 1;
    }
    true
}

/// One workload of a study's catalogue: listed without being built.
#[derive(Debug)]
pub struct CaseSpec {
    /// Case id, unique within the study and the same at every size (`btree-many`,
    /// `range-15000/0-keys`); the size and row count are attributes of the run.
    pub id: &'static str,
    /// What it is, in a line.
    pub summary: &'static str,
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
    /// Whether this build has the feature on (`cfg!(feature = ...)` at the study's row).
    pub feature_on: bool,
    /// Variant id of the unpatched baseline.
    pub baseline: &'static str,
    /// Variant id the feature selects.
    pub patched: &'static str,
    /// What one item is (per-item normalisation): "TID", "tuple", ...
    pub unit: &'static str,
    /// What the C reference kernels (gcc 12 and clang 19 with PostgreSQL's flags, csrc/)
    /// showed about the seed's explanation, in a sentence or two ("" when the study has none);
    /// the figures are in `analysis/`.
    pub c_kernels: &'static str,
    /// The study measures the allocator (alloc-churn): what malloc does in a kernel depends on
    /// what the process allocated before, so callgrind counts each case in a process of its
    /// own instead of all of a variant's cases in one.
    pub heap_history_matters: bool,
    /// All variants, baseline first.
    pub variants: &'static [Variant],
    /// The case catalogue, in report order.
    pub cases: &'static [CaseSpec],
}

/// How big a workload to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Size {
    /// Seconds-long unit and property tests.
    Test,
    /// A short run: the default report's size (`--quick` elsewhere).
    Quick,
    /// The seed's own scale where memory allows.
    Full,
}

impl Size {
    /// `test` / `quick` / `full`: the CLI's and the files' name.
    pub fn name(self) -> &'static str {
        match self {
            Size::Test => "test",
            Size::Quick => "quick",
            Size::Full => "full",
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One prepared workload of a study: every variant runs the same input.
pub trait Case {
    /// What the workload is at the size it was built, with the numbers that explain it.
    fn describe(&self) -> String;
    /// Items (TIDs, tuples) one `run` processes; the per-item normaliser.
    fn items(&self) -> u64;
    /// Run variant `v` (a row of this case's study) once over the whole case and return a
    /// digest of its output and final state; equal digests mean equal results. An error (a
    /// row of another study, a data file that cannot be read, a cache state that cannot be
    /// set up, a bitmap that raised its ERROR) has no number to give and ends the measurement
    /// with its message.
    fn run(&mut self, v: &'static Variant) -> anyhow::Result<u64>;
    /// The seed's own ratio (variant time / baseline time) for this case and variant, where
    /// the seed reported one, printed beside the measured ratio.
    fn seed_ratio(&self, _v: &'static Variant) -> Option<f64> {
        None
    }
    /// Study-specific figures of variant `v` (peak memory, page faults, read calls...):
    /// (metric, value, unit). Called once per variant per report.
    fn extra_metrics(&mut self, _v: &'static Variant) -> anyhow::Result<Vec<(String, f64, String)>> {
        Ok(Vec::new())
    }
}

/// A study: its description, its rows and its case catalogue.
pub trait Study: Sync {
    /// Static description, variant rows and case catalogue.
    fn info(&self) -> &'static StudyInfo;
    /// Build one case of the catalogue at `size`. Only that case is built.
    fn build(&self, case: &'static CaseSpec, size: Size) -> anyhow::Result<Box<dyn Case>>;
}

/// Every study, in the order reports list them.
pub static STUDIES: &[&dyn Study] = &[&local_index::STUDY, &dir_by_value::STUDY, &tid_batch::STUDY, &read_stream::STUDY, &alloc_churn::STUDY];

/// The cargo features this build was compiled with, from the studies' rows.
pub fn features_enabled() -> Vec<String> {
    STUDIES.iter().map(|s| s.info()).filter(|i| i.feature_on).map(|i| i.feature.to_string()).collect()
}

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

/// The row that owns `v`'s kernel: `v` itself, or the row whose id names the kernel it shares.
pub fn kernel_owner(v: &'static Variant) -> &'static Variant {
    STUDIES
        .iter()
        .flat_map(|s| s.info().variants.iter())
        .find(|o| o.owns_kernel() && o.kernel == v.kernel)
        .unwrap_or(v)
}

/// Every Rust kernel once, by its owning row (the snapshots cargo-show-asm writes; the C
/// kernels' come from the compiler's `-S`, `tests/ckernels_asm.rs`).
pub fn kernels() -> Vec<&'static Variant> {
    STUDIES.iter().flat_map(|s| s.info().variants.iter()).filter(|v| v.owns_kernel() && !v.is_c()).collect()
}

/// Snapshot path of `v`'s kernel, relative to `asm-snapshots/`: `study/<owner>.s`, or
/// `study/c-<variant>@<config>.s` for a C kernel.
pub fn snapshot_path(v: &'static Variant) -> String {
    if v.is_c() { format!("{}@{}.s", v.base_id(), v.config) } else { format!("{}.s", kernel_owner(v).id) }
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
        write!(f, "unknown {} `{}`; valid {} are:", self.kind, shown(&self.given), plural(self.kind))?;
        for v in &self.valid {
            write!(f, "\n  {v}")?;
        }
        Ok(())
    }
}

/// A name as an error echoes it: whole up to 80 characters, else its start and its length
/// (a pasted file is not printed back).
fn shown(given: &str) -> String {
    let n = given.chars().count();
    if n <= 80 { given.to_string() } else { format!("{}… ({n} characters)", given.chars().take(60).collect::<String>()) }
}

/// The plural of a kind of name: its head nouns ("study with a sweep" -> "studies with a
/// sweep", "study or variant" -> "studies or variants").
fn plural(kind: &str) -> String {
    let cut = [" with ", " other than "].iter().filter_map(|w| kind.find(w)).min().unwrap_or(kind.len());
    let (head, tail) = kind.split_at(cut);
    let one = |p: &str| match p.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'i', 'o', 'u']) => format!("{stem}ies"),
        _ if p.ends_with('s') || p.ends_with('x') => format!("{p}es"),
        _ => format!("{p}s"),
    };
    let heads: Vec<String> = head.split(" or ").map(one).collect();
    format!("{}{tail}", heads.join(" or "))
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

/// Find a variant by id: its study and row.
pub fn variant(id: &str) -> Result<(&'static dyn Study, &'static Variant), UnknownName> {
    for s in STUDIES {
        if let Some(v) = s.info().variants.iter().find(|v| v.id == id) {
            return Ok((*s, v));
        }
    }
    Err(UnknownName {
        kind: "variant id",
        given: id.to_string(),
        valid: all_ids().into_iter().map(String::from).collect(),
    })
}

/// The C configurations a run takes rows of: `names` if given (each must be a known
/// configuration, else an [`UnknownName`] listing them; and built, else an error naming what
/// to install), otherwise the canonical one alone or, with `all_built`, every configuration
/// built into this binary (a skipped one is said in `notes`).
pub fn select_configs(names: &[String], all_built: bool, notes: &mut Vec<String>) -> anyhow::Result<Vec<&'static str>> {
    use crate::ckernels::{CANONICAL, CONFIGS};
    if names.is_empty() {
        if !all_built {
            return Ok(vec![CANONICAL]);
        }
        for c in CONFIGS.iter().filter(|c| !c.built) {
            notes.push(format!("C configuration {} skipped: {}", c.name, c.note));
        }
        return Ok(CONFIGS.iter().filter(|c| c.built).map(|c| c.name).collect());
    }
    let mut out = Vec::new();
    for n in names {
        let c = config_named(n)?;
        if !c.built {
            return Err(crate::host::Unavailable(format!("C configuration `{}` is not in this build: {}", c.name, c.note)).into());
        }
        if !out.contains(&c.name) {
            out.push(c.name);
        }
    }
    Ok(out)
}

/// A C configuration by name; an unknown one lists the valid names (exit 2 at the CLI).
pub fn config_named(name: &str) -> Result<&'static crate::ckernels::CConfig, UnknownName> {
    crate::ckernels::CONFIGS.iter().find(|c| c.name == name).ok_or_else(|| UnknownName {
        kind: "C configuration",
        given: name.to_string(),
        valid: crate::ckernels::CONFIGS.iter().map(|c| format!("{}{}", c.name, if c.built { "" } else { " (not built here)" })).collect(),
    })
}

/// Row `v` under C configuration `config` (None: `v` itself): the row of the same C kernel
/// built under `config`. A Rust row, an unknown or unbuilt configuration is an error.
pub fn with_config(v: &'static Variant, config: Option<&str>) -> anyhow::Result<&'static Variant> {
    let Some(name) = config else { return Ok(v) };
    let c = config_named(name)?;
    if !v.is_c() {
        let c_ids: Vec<String> = STUDIES.iter().flat_map(|s| s.info().variants.iter()).filter(|r| r.is_c() && r.config == crate::ckernels::CANONICAL).map(|r| r.id.to_string()).collect();
        return Err(UnknownName { kind: "C variant id", given: format!("{} (a Rust kernel; --config applies to C kernels)", v.id), valid: c_ids }.into());
    }
    if !c.built {
        return Err(crate::host::Unavailable(format!("C configuration `{}` is not in this build: {}", c.name, c.note)).into());
    }
    STUDIES
        .iter()
        .flat_map(|s| s.info().variants.iter())
        .find(|r| r.is_c() && r.base_id() == v.base_id() && r.config == c.name)
        .ok_or_else(|| anyhow::anyhow!("no row of {} under {}", v.base_id(), c.name))
}

impl Variant {
    /// Is this row in a run of C configurations `configs`? (Rust rows always are.)
    pub fn in_configs(&self, configs: &[&str]) -> bool {
        !self.is_c() || configs.contains(&self.config)
    }
}

/// A case this host cannot run (a file system that refuses `O_DIRECT`): the report leaves it
/// out with this reason instead of failing.
#[derive(Debug)]
pub struct CaseUnavailable(pub String);

impl fmt::Display for CaseUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CaseUnavailable {}

/// Build case `id` of `study` at `size`; an unknown id lists the valid ones.
pub fn build_case(study: &dyn Study, id: &str, size: Size) -> anyhow::Result<Box<dyn Case>> {
    let spec = study.info().case(id)?;
    study.build(spec, size)
}

impl StudyInfo {
    /// The unit's plural, for counts ("2 queries", "1000 TIDs").
    pub fn units(&self) -> String {
        match self.unit.strip_suffix('y') {
            Some(stem) => format!("{stem}ies"),
            None => format!("{}s", self.unit),
        }
    }

    /// A variant row by id (`study/name`) or short name (`name`); unknown names list the
    /// study's ids.
    pub fn variant(&self, name: &str) -> Result<&'static Variant, UnknownName> {
        let full = if name.contains('/') { name.to_string() } else { format!("{}/{name}", self.name) };
        self.variants.iter().find(|v| v.id == full).ok_or_else(|| UnknownName {
            kind: "variant id",
            given: name.to_string(),
            valid: self.variants.iter().map(|v| v.id.to_string()).collect(),
        })
    }

    /// A case of the catalogue by id; unknown ids list the valid ones.
    pub fn case(&self, id: &str) -> Result<&'static CaseSpec, UnknownName> {
        self.cases.iter().find(|c| c.id == id).ok_or_else(|| UnknownName {
            kind: "case",
            given: id.to_string(),
            valid: self.cases.iter().map(|c| c.id.to_string()).collect(),
        })
    }

    /// The baseline's row.
    pub fn baseline_variant(&self) -> &'static Variant {
        self.variant(self.baseline).unwrap_or(&self.variants[0])
    }

    /// The row the pipeline runs in this build (the feature on or off).
    pub fn pipeline_variant(&self) -> &'static Variant {
        self.variant(if self.feature_on { self.patched } else { self.baseline }).unwrap_or(&self.variants[0])
    }
}
