//! C reference kernels (`csrc/`), built by `build.rs` with PostgreSQL's own flags under several
//! named compiler configurations, all linked into this binary under suffixed symbols
//! (`hotloops_local_index_c_store_each__gcc12_pg`), so that configurations compare in one run.
//!
//! Study layer: imports only [`crate::pg`]. Rows of [`kernels`] name (variant id,
//! configuration, symbol, function pointer); [`CONFIGS`] says which compiler, version and flags
//! built each configuration, or why it was skipped. The C code calls back into Rust for what
//! lives in other translation units in PostgreSQL: the page step ([`hl_bt_steppage`], the
//! crate's `_bt_next`) and the flush ([`hl_tid_sink_add_tuples`], the crate's `TidSink`, so that
//! C and Rust kernels of one study feed the very same sink and differ only in their own code);
//! the tid-batch kernels step the study's own B-tree scan through [`hl_tb_bt_first`],
//! [`hl_tb_bt_next`], [`hl_tb_bt_steppage`] and [`hl_tb_bt_start_prim_scan`] (the functions
//! the Rust tid-batch kernels call) and sink into [`CTidBitmap`]. Each (kernel,
//! configuration) is also a row of its study (`<id>@<config>` off the canonical one).

use crate::pg::ItemPointer;
use crate::pg::nbtree::{BTScanOpaque, BTree, IndexScanDesc, MAX_TIDS_PER_BTREE_PAGE, bt_steppage};
use crate::pg::nbtscan::{self, BtreeScan};
use crate::pg::page::Page;
use crate::pg::sink::TidSink;
use crate::pg::tidbitmap::{PagetableEntry, SH_STATUS_IN_USE, tidbitmap_digest};
use anyhow::{Result, bail};
use std::ffi::{CStr, c_char, c_int, c_void};

/// One compiler configuration of the C kernels.
#[derive(Debug)]
pub struct CConfig {
    /// Name used everywhere (`gcc12-pg`): CLI, snapshot paths, report columns.
    pub name: &'static str,
    /// Symbol suffix (`gcc12_pg`): `hotloops_<...>__<suffix>`.
    pub suffix: &'static str,
    /// Compiler executable that built it (empty when skipped).
    pub compiler: &'static str,
    /// First line of the compiler's `--version` (empty when skipped).
    pub version: &'static str,
    /// The configuration's flags, verbatim.
    pub flags: &'static str,
    /// Every argument cc passed the compiler before `-c -o obj src` (cc's `-Wall`, `-I`, `-D`
    /// included): what the object and `-S` builds really ran with.
    pub effective_args: &'static str,
    /// Built into this binary.
    pub built: bool,
    /// Why it was skipped, or a caveat.
    pub note: &'static str,
    /// The GNU triple its code is for: the host's (`x86_64-unknown-linux-gnu`) for the linked
    /// configurations, `aarch64-linux-gnu` for [`ARM64`].
    pub target: &'static str,
}

impl CConfig {
    /// Is its code AArch64 (gcc's GNU syntax in its `-S` output, llvm-mca's aarch64 triple)?
    pub fn is_aarch64(&self) -> bool {
        self.target.starts_with("aarch64")
    }
}

include!(concat!(env!("OUT_DIR"), "/ckernels_configs.rs"));

/// The canonical configuration: gcc 12 with Debian PostgreSQL 15's `pg_config` flags.
pub const CANONICAL: &str = "gcc12-pg";

/// The arm64 configuration: `aarch64-linux-gnu-gcc` 12 with Debian arm64 PostgreSQL 15's
/// `pg_config` flags (csrc/README.md). A cross configuration ([`CROSS_CONFIGS`]): never linked
/// into this x86-64 binary, so it has no rows of a study; its kernels are [`cross_kernels`].
pub const ARM64: &str = "gcc12-pg-arm64";

/// Look a configuration up by name, linked or cross; an unknown name lists the known ones.
pub fn config(name: &str) -> Result<&'static CConfig> {
    match CONFIGS.iter().chain(CROSS_CONFIGS).find(|c| c.name == name) {
        Some(c) => Ok(c),
        None => bail!(
            "unknown C configuration `{name}` (known: {})",
            CONFIGS.iter().chain(CROSS_CONFIGS).map(|c| c.name).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The emulated test program of configuration `name` (csrc/emu/hl_emu.c linked with every
/// kernel of csrc/ under that configuration's arguments) and its GNU triple, if build.rs built
/// it: the cross configuration's (run under qemu-aarch64) and the canonical one's, natively.
pub fn emu_program(name: &str) -> Option<(&'static str, &'static str)> {
    EMU_PROGRAMS.iter().find(|e| e.0 == name).map(|e| (e.1, e.2))
}

/// `local-index` C kernel: `(scan, batch, sink) -> ntids`.
pub type LocalIndexFn = unsafe extern "C" fn(*mut IndexScanDesc, *mut ItemPointer, *mut c_void) -> i64;
/// `dir-by-value` C kernel: `_bt_readpage(scan, page, offnum, firstpage, min_keys)`.
pub type DirByValueFn = unsafe extern "C" fn(*mut IndexScanDesc, *const Page, u16, bool, c_int) -> bool;

/// `tid-batch` C kernel: `(scan, the crate's B-tree scan for the page-step callees, C
/// TIDBitmap) -> ntids`.
pub type TidBatchFn = unsafe extern "C" fn(*mut IndexScanDesc, *mut c_void, *mut c_void) -> i64;

/// A C kernel's entry point, typed by study.
#[derive(Clone, Copy, Debug)]
pub enum Entry {
    /// A `local-index` copy loop.
    LocalIndex(LocalIndexFn),
    /// A `dir-by-value` readpage.
    DirByValue(DirByValueFn),
    /// A `tid-batch` btgetbitmap into the C TIDBitmap.
    TidBatch(TidBatchFn),
}

/// One configuration's C TIDBitmap functions (csrc/tidbitmap.c).
#[derive(Debug)]
pub struct TbmFns {
    create: unsafe extern "C" fn(i64) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    add_tuples: unsafe extern "C" fn(*mut c_void, *const ItemPointer, c_int, bool),
    buckets: unsafe extern "C" fn(*const c_void, *mut u64) -> *const PagetableEntry,
}

/// One (kernel, configuration) row.
#[derive(Debug)]
pub struct CKernel {
    /// Variant id (`local-index/c-store-each`), the same under every configuration.
    pub id: &'static str,
    /// Configuration name (`gcc12-pg`).
    pub config: &'static str,
    /// Entry symbol (`hotloops_local_index_c_store_each__gcc12_pg`).
    pub symbol: &'static str,
    /// Out-of-line helpers of the same translation unit, snapshotted with the entry.
    pub helpers: &'static [&'static str],
    /// The function.
    pub entry: Entry,
}

impl CKernel {
    /// `local-index/c-store-each` -> `c-store-each`.
    pub fn variant(&self) -> &'static str {
        self.id.split_once('/').map_or(self.id, |(_, v)| v)
    }
    /// `local-index/c-store-each` -> `local-index`.
    pub fn study(&self) -> &'static str {
        self.id.split_once('/').map_or(self.id, |(s, _)| s)
    }
    /// Snapshot path relative to `asm-snapshots/`: `local-index/c-store-each@gcc12-pg.s`.
    pub fn snapshot_path(&self) -> String {
        format!("{}@{}.s", self.id, self.config)
    }
}

/// A C kernel under a cross configuration ([`CROSS_CONFIGS`]): no function pointer (its code
/// cannot run in this process), only what its asm snapshot, static model and emulated run need.
/// Derived from the canonical configuration's rows, so every C kernel has one.
#[derive(Debug)]
pub struct CrossKernel {
    /// Variant id (`local-index/c-store-each`), the same under every configuration.
    pub id: &'static str,
    /// Configuration name (`gcc12-pg-arm64`).
    pub config: &'static str,
    /// Entry symbol (`hotloops_local_index_c_store_each__gcc12_pg_arm64`).
    pub symbol: String,
    /// Out-of-line helpers, suffixed as the entry.
    pub helpers: Vec<String>,
}

impl CrossKernel {
    /// The row id everywhere else: `local-index/c-store-each@gcc12-pg-arm64`.
    pub fn row_id(&self) -> String {
        format!("{}@{}", self.id, self.config)
    }
    /// `local-index/c-store-each` -> `c-store-each`.
    pub fn variant(&self) -> &'static str {
        self.id.split_once('/').map_or(self.id, |(_, v)| v)
    }
    /// `local-index/c-store-each` -> `local-index`.
    pub fn study(&self) -> &'static str {
        self.id.split_once('/').map_or(self.id, |(s, _)| s)
    }
    /// Snapshot path relative to `asm-snapshots/`: `local-index/c-store-each@gcc12-pg-arm64.s`.
    pub fn snapshot_path(&self) -> String {
        format!("{}@{}.s", self.id, self.config)
    }
}

/// Every C kernel under every cross configuration (built here or not: their snapshots are
/// checked in, so the static model reads them without the cross compiler), in the canonical
/// configuration's row order.
pub fn cross_kernels() -> &'static [CrossKernel] {
    static ROWS: std::sync::OnceLock<Vec<CrossKernel>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        let canon = config(CANONICAL).expect("the canonical configuration is in the table").suffix;
        let resuffix = |s: &str, to: &str| format!("{}__{to}", s.strip_suffix(&format!("__{canon}")).unwrap_or(s));
        let mut v = vec![];
        for c in CROSS_CONFIGS {
            for k in kernels().filter(|k| k.config == CANONICAL) {
                v.push(CrossKernel {
                    id: k.id,
                    config: c.name,
                    symbol: resuffix(k.symbol, c.suffix),
                    helpers: k.helpers.iter().map(|h| resuffix(h, c.suffix)).collect(),
                });
            }
        }
        v
    })
}

/// The cross row `local-index/c-store-each@gcc12-pg-arm64`, by its id.
pub fn cross_kernel(row_id: &str) -> Option<&'static CrossKernel> {
    cross_kernels().iter().find(|k| k.row_id() == row_id)
}

/// One row of the C compiler's layout table (`hl_layout` in csrc/hl_layout.c).
#[repr(C)]
struct LayoutRowC {
    strct: *const c_char,
    field: *const c_char,
    offset: u32,
    size: u32,
}

/// A field as the C compiler laid it out (`field` empty: the struct's size in `size`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutRow {
    /// C struct name.
    pub strct: String,
    /// Field name, or empty for the struct's size.
    pub field: String,
    /// `offsetof`.
    pub offset: u32,
    /// `sizeof` the field (or the struct).
    pub size: u32,
}

/// Declares one configuration's symbols and its rows, from the one list of kernels below.
macro_rules! config_kernels {
    ($cfg:ident, $name:literal, $suffix:literal) => {
        #[cfg($cfg)]
        pub(crate) mod $cfg {
            use super::*;
            // C sees the Rust-only fields behind these pointers as opaque bytes
            // (HLIndexRelation, csrc/hl_pg.h): the pointers themselves are FFI-safe.
            #[allow(improper_ctypes)]
            unsafe extern "C" {
                #[link_name = concat!("hotloops_local_index_c_store_each__", $suffix)]
                pub(crate) fn li_store_each(scan: *mut IndexScanDesc, batch: *mut ItemPointer, sink: *mut c_void) -> i64;
                #[link_name = concat!("hotloops_local_index_c_local__", $suffix)]
                pub(crate) fn li_local(scan: *mut IndexScanDesc, batch: *mut ItemPointer, sink: *mut c_void) -> i64;
                #[link_name = concat!("hotloops_local_index_c_span__", $suffix)]
                pub(crate) fn li_span(scan: *mut IndexScanDesc, batch: *mut ItemPointer, sink: *mut c_void) -> i64;
                #[link_name = concat!("hotloops_dir_by_value_c_opaque__", $suffix)]
                pub(crate) fn dv_opaque(scan: *mut IndexScanDesc, page: *const Page, offnum: u16, firstpage: bool, min_keys: c_int) -> bool;
                #[link_name = concat!("hotloops_dir_by_value_c_by_value__", $suffix)]
                pub(crate) fn dv_by_value(scan: *mut IndexScanDesc, page: *const Page, offnum: u16, firstpage: bool, min_keys: c_int) -> bool;
                #[link_name = concat!("hotloops_tid_batch_c_per_tid__", $suffix)]
                pub(crate) fn tb_per_tid(scan: *mut IndexScanDesc, bs: *mut c_void, tbm: *mut c_void) -> i64;
                #[link_name = concat!("hotloops_tid_batch_c_batched__", $suffix)]
                pub(crate) fn tb_batched(scan: *mut IndexScanDesc, bs: *mut c_void, tbm: *mut c_void) -> i64;
                #[link_name = concat!("hl_tbm_create__", $suffix)]
                fn tbm_create(maxbytes: i64) -> *mut c_void;
                #[link_name = concat!("hl_tbm_free__", $suffix)]
                fn tbm_free(tbm: *mut c_void);
                #[link_name = concat!("hl_tbm_add_tuples__", $suffix)]
                fn tbm_add_tuples(tbm: *mut c_void, tids: *const ItemPointer, ntids: c_int, recheck: bool);
                #[link_name = concat!("hl_tbm_buckets__", $suffix)]
                fn tbm_buckets(tbm: *const c_void, n: *mut u64) -> *const PagetableEntry;
                #[link_name = concat!("hl_layout__", $suffix)]
                static LAYOUT: LayoutRowC;
            }
            pub(super) static TBM: TbmFns = TbmFns { create: tbm_create, free: tbm_free, add_tuples: tbm_add_tuples, buckets: tbm_buckets };
            pub(super) fn layout() -> *const LayoutRowC {
                &raw const LAYOUT
            }
            pub(super) static ROWS: &[CKernel] = &[
                CKernel {
                    id: "local-index/c-store-each",
                    config: $name,
                    symbol: concat!("hotloops_local_index_c_store_each__", $suffix),
                    helpers: &[],
                    entry: Entry::LocalIndex(li_store_each),
                },
                CKernel {
                    id: "local-index/c-local",
                    config: $name,
                    symbol: concat!("hotloops_local_index_c_local__", $suffix),
                    helpers: &[],
                    entry: Entry::LocalIndex(li_local),
                },
                CKernel {
                    id: "local-index/c-span",
                    config: $name,
                    symbol: concat!("hotloops_local_index_c_span__", $suffix),
                    helpers: &[],
                    entry: Entry::LocalIndex(li_span),
                },
                CKernel {
                    id: "dir-by-value/c-opaque",
                    config: $name,
                    symbol: concat!("hotloops_dir_by_value_c_opaque__", $suffix),
                    helpers: &[concat!("hl_dir_by_value_c_opaque_checkkeys__", $suffix), concat!("hl_bt_check_compare__", $suffix)],
                    entry: Entry::DirByValue(dv_opaque),
                },
                CKernel {
                    id: "dir-by-value/c-by-value",
                    config: $name,
                    symbol: concat!("hotloops_dir_by_value_c_by_value__", $suffix),
                    helpers: &[concat!("hl_dir_by_value_c_by_value_checkkeys__", $suffix), concat!("hl_bt_check_compare__", $suffix)],
                    entry: Entry::DirByValue(dv_by_value),
                },
                CKernel {
                    id: "tid-batch/c-per-tid",
                    config: $name,
                    symbol: concat!("hotloops_tid_batch_c_per_tid__", $suffix),
                    helpers: &[],
                    entry: Entry::TidBatch(tb_per_tid),
                },
                CKernel {
                    id: "tid-batch/c-batched",
                    config: $name,
                    symbol: concat!("hotloops_tid_batch_c_batched__", $suffix),
                    helpers: &[],
                    entry: Entry::TidBatch(tb_batched),
                },
            ];
        }
    };
}

config_kernels!(hlc_gcc12_pg, "gcc12-pg", "gcc12_pg");
config_kernels!(hlc_gcc12_upstream, "gcc12-upstream", "gcc12_upstream");
config_kernels!(hlc_gcc12_strict, "gcc12-strict", "gcc12_strict");
config_kernels!(hlc_clang19_pg, "clang19-pg", "clang19_pg");

/// Per built configuration: (name, its kernel rows, its layout table, its TIDBitmap).
type BuiltConfig = (&'static str, &'static [CKernel], fn() -> *const LayoutRowC, &'static TbmFns);

static BUILT: &[BuiltConfig] = &[
    #[cfg(hlc_gcc12_pg)]
    ("gcc12-pg", hlc_gcc12_pg::ROWS, hlc_gcc12_pg::layout, &hlc_gcc12_pg::TBM),
    #[cfg(hlc_gcc12_upstream)]
    ("gcc12-upstream", hlc_gcc12_upstream::ROWS, hlc_gcc12_upstream::layout, &hlc_gcc12_upstream::TBM),
    #[cfg(hlc_gcc12_strict)]
    ("gcc12-strict", hlc_gcc12_strict::ROWS, hlc_gcc12_strict::layout, &hlc_gcc12_strict::TBM),
    #[cfg(hlc_clang19_pg)]
    ("clang19-pg", hlc_clang19_pg::ROWS, hlc_clang19_pg::layout, &hlc_clang19_pg::TBM),
];

/// Every (kernel, configuration) row of this build, configurations in [`CONFIGS`] order.
pub fn kernels() -> impl Iterator<Item = &'static CKernel> {
    BUILT.iter().flat_map(|b| b.1.iter())
}

/// The distinct C variant ids, in order.
pub fn variant_ids() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    for k in kernels() {
        if !v.contains(&k.id) {
            v.push(k.id);
        }
    }
    v
}

/// The row for `id` under `config`: errors name what exists.
pub fn kernel(id: &str, config_name: &str) -> Result<&'static CKernel> {
    let c = config(config_name)?;
    if !c.built {
        bail!("C configuration `{config_name}` is not in this build: {}", c.note);
    }
    match kernels().find(|k| k.id == id && k.config == config_name) {
        Some(k) => Ok(k),
        None => bail!("no C kernel `{id}` (C kernels: {})", variant_ids().join(", ")),
    }
}

/// The layout table the C compiler produced under `config_name`.
pub fn layout(config_name: &str) -> Result<Vec<LayoutRow>> {
    let Some(b) = BUILT.iter().find(|b| b.0 == config_name) else {
        bail!("C configuration `{config_name}` is not in this build");
    };
    let mut out = vec![];
    let mut p = (b.2)();
    // SAFETY: hl_layout is a static array of rows ending with a NULL struct name, with
    // NUL-terminated string literals.
    unsafe {
        while !(*p).strct.is_null() {
            let r = &*p;
            out.push(LayoutRow {
                strct: CStr::from_ptr(r.strct).to_string_lossy().into_owned(),
                field: CStr::from_ptr(r.field).to_string_lossy().into_owned(),
                offset: r.offset,
                size: r.size,
            });
            p = p.add(1);
        }
    }
    Ok(out)
}

/// `_bt_next`'s page step for the C kernels: [`bt_steppage`], out of line as in PostgreSQL.
///
/// # Safety
/// `so` and `rel` must be valid, and `so` not otherwise borrowed during the call.
#[unsafe(no_mangle)]
#[allow(improper_ctypes_definitions)] // C never looks inside BTree or BTScanOpaque's Rust parts.
pub unsafe extern "C" fn hl_bt_steppage(so: *mut BTScanOpaque, rel: *const BTree) -> bool {
    unsafe { bt_steppage(&mut *so, &*rel) }
}

/// `tbm_add_tuples` for the C kernels: hands the batch to the Rust sink the caller passed.
///
/// # Safety
/// `sink` must point to a live `&mut dyn TidSink`, `tids` to `ntids` initialised TIDs.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_tid_sink_add_tuples(sink: *mut c_void, tids: *const ItemPointer, ntids: c_int, recheck: bool) {
    unsafe {
        let sink = &mut *(sink as *mut &mut dyn TidSink);
        sink.add_tuples(std::slice::from_raw_parts(tids, ntids.max(0) as usize), recheck);
    }
}

/// The batch a `local-index` C kernel fills (`HL_BATCH_CAPACITY`, one leaf page's worth, as
/// the Rust kernels' `BATCH_CAPACITY`).
pub const BATCH_CAPACITY: usize = MAX_TIDS_PER_BTREE_PAGE;

/// `_bt_first` (+ `_bt_returnitem`) for the tid-batch C kernels: `nbtscan::bt_first`,
/// the function the Rust kernels call; `&scan->xs_heaptid`, or null when nothing matched.
///
/// # Safety
/// `bs` must point to a live, reset [`BtreeScan`] whose memory context is current.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_tb_bt_first(bs: *mut c_void) -> *const ItemPointer {
    let bs = bs.cast::<BtreeScan>();
    unsafe { if nbtscan::bt_first(bs) { &raw const (*bs).xs_heaptid } else { std::ptr::null() } }
}

/// `_bt_next` once the page is exhausted, for the tid-batch C kernels (`nbtscan::bt_next`).
///
/// # Safety
/// As [`hl_tb_bt_first`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_tb_bt_next(bs: *mut c_void) -> bool {
    unsafe { nbtscan::bt_next(bs.cast()) }
}

/// `_bt_steppage` through shared buffers, for the tid-batch C kernels
/// (`nbtscan::bt_steppage_buf`).
///
/// # Safety
/// As [`hl_tb_bt_first`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_tb_bt_steppage(bs: *mut c_void) -> bool {
    unsafe { nbtscan::bt_steppage_buf(bs.cast()) }
}

/// `so->numArrayKeys && _bt_start_prim_scan(scan)` for the tid-batch C kernels.
///
/// # Safety
/// As [`hl_tb_bt_first`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn hl_tb_bt_start_prim_scan(bs: *mut c_void) -> bool {
    unsafe { nbtscan::bt_start_prim_scan(bs.cast()) }
}

/// Run a tid-batch C kernel `f` over `bs` into `tbm` (the caller resets the scan and makes
/// its memory context current); returns `ntids`.
///
/// # Safety
/// `bs` must be live and reset, its context current; `tbm` of the kernel's configuration.
pub unsafe fn run_tid_batch(f: TidBatchFn, bs: *mut BtreeScan, tbm: &mut CTidBitmap) -> i64 {
    // SAFETY: desc.opaque points at the scan's own BTScanOpaque; the callees cast `bs` back.
    unsafe { f(&raw mut (*bs).desc, bs.cast(), tbm.as_ptr()) }
}

/// The C TIDBitmap of one configuration (csrc/tidbitmap.c, exact and lossy): a [`TidSink`],
/// read back as its bucket array to compare with the Rust model slot by slot, and digested
/// with the Rust model's formula ([`tidbitmap_digest`]).
pub struct CTidBitmap {
    fns: &'static TbmFns,
    tbm: *mut c_void,
    /// Configuration name.
    pub config: &'static str,
}

/// The C TIDBitmap's counters and its first ERROR, read from the struct.
#[repr(C)]
struct CTbmHead {
    status: c_int,
    pagetable: *const CPagetableHead,
    nentries: c_int,
    maxentries: c_int,
    npages: c_int,
    nchunks: c_int,
    entry1: PagetableEntry,
    error: c_int,
    error_block: u32,
    error_offset: u32,
    lossify_start: u32,
}

const _: () = assert!(
    std::mem::offset_of!(CTbmHead, entry1) == 32
        && std::mem::offset_of!(CTbmHead, error) == 80
        && std::mem::offset_of!(CTbmHead, lossify_start) == 92
        && size_of::<CTbmHead>() == 96
);

#[repr(C)]
struct CPagetableHead {
    size: u64,
    members: u32,
    sizemask: u32,
    grow_threshold: u32,
}

/// What [`CTidBitmap::info`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CTbmInfo {
    /// 0 = TBM_EMPTY, 1 = TBM_ONE_PAGE, 2 = TBM_HASH.
    pub status: i32,
    /// Entries.
    pub nentries: i32,
    /// Exact pages.
    pub npages: i32,
    /// Lossy chunks.
    pub nchunks: i32,
    /// Where the next `tbm_lossify` starts.
    pub lossify_start: u32,
    /// `maxentries` (doubled by a lossify that cannot reach half of it).
    pub maxentries: i32,
    /// Buckets and members of the page table (0, 0 before it exists).
    pub size: u64,
    /// Members.
    pub members: u32,
    /// Grow threshold.
    pub grow_threshold: u32,
    /// First ERROR: 1 = bad offset, with block and offset.
    pub error: Option<(i32, u32, u32)>,
}

impl CTidBitmap {
    /// `tbm_create(maxbytes)` under `config_name`.
    pub fn new(config_name: &str, maxbytes: usize) -> Result<CTidBitmap> {
        let Some(b) = BUILT.iter().find(|b| b.0 == config_name) else { bail!("C configuration `{config_name}` is not in this build") };
        // SAFETY: plain constructor; the pointer is freed in Drop.
        let tbm = unsafe { (b.3.create)(maxbytes.min(i64::MAX as usize) as i64) };
        Ok(CTidBitmap { fns: b.3, tbm, config: b.0 })
    }

    /// The raw bitmap, for the tid-batch kernels.
    pub fn as_ptr(&mut self) -> *mut c_void {
        self.tbm
    }

    /// Counters, table size and the first ERROR.
    pub fn info(&self) -> CTbmInfo {
        // SAFETY: tbm points at a live TIDBitmap whose head CTbmHead mirrors (hl_pg.h).
        unsafe {
            let h = &*(self.tbm as *const CTbmHead);
            let (size, members, grow_threshold) =
                if h.pagetable.is_null() { (0, 0, 0) } else { ((*h.pagetable).size, (*h.pagetable).members, (*h.pagetable).grow_threshold) };
            CTbmInfo {
                status: h.status,
                nentries: h.nentries,
                npages: h.npages,
                nchunks: h.nchunks,
                lossify_start: h.lossify_start,
                maxentries: h.maxentries,
                size,
                members,
                grow_threshold,
                error: (h.error != 0).then_some((h.error, h.error_block, h.error_offset)),
            }
        }
    }

    /// The bucket array (TBM_HASH), `[entry1]` (TBM_ONE_PAGE) or nothing (TBM_EMPTY).
    pub fn buckets(&self) -> Vec<PagetableEntry> {
        let mut n = 0u64;
        // SAFETY: the C side returns `n` live entries.
        unsafe {
            let p = (self.fns.buckets)(self.tbm, &mut n);
            if p.is_null() { Vec::new() } else { std::slice::from_raw_parts(p, n as usize).to_vec() }
        }
    }

    /// Every entry in use: `entry1` in one-page state (whose slot status C leaves 0, as
    /// PostgreSQL does), the table's slots in use in hash state.
    pub fn entries(&self) -> Vec<PagetableEntry> {
        let b = self.buckets();
        if self.info().status == 2 { b.into_iter().filter(|e| e.status == SH_STATUS_IN_USE).collect() } else { b }
    }

    /// The Rust model's digest of the logical content ([`tidbitmap_digest`]): equal to
    /// `TidBitmap::digest` for an equal bitmap.
    pub fn digest(&self) -> u64 {
        let i = self.info();
        tidbitmap_digest(&self.entries(), i.nentries, i.npages, i.nchunks, i.maxentries)
    }

    /// (exact pages, lossy pages), as EXPLAIN's "Heap Blocks" counts them.
    pub fn heap_blocks(&self) -> (u64, u64) {
        let lossy = self.entries().iter().filter(|e| e.ischunk).map(|e| e.words.iter().map(|w| w.count_ones() as u64).sum::<u64>()).sum();
        (self.info().npages as u64, lossy)
    }
}

impl TidSink for CTidBitmap {
    fn add_tuples(&mut self, tids: &[ItemPointer], recheck: bool) {
        for chunk in tids.chunks(c_int::MAX as usize) {
            // SAFETY: tbm is live; chunk holds chunk.len() TIDs.
            unsafe { (self.fns.add_tuples)(self.tbm, chunk.as_ptr(), chunk.len() as c_int, recheck) };
        }
    }
}

impl Drop for CTidBitmap {
    fn drop(&mut self) {
        // SAFETY: created by this configuration's tbm_create, freed once.
        unsafe { (self.fns.free)(self.tbm) };
    }
}

