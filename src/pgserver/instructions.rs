//! The server's own instruction counts, function by function, beside the model's
//! (`hotloops pg --instructions`): callgrind over a single-user backend (`postgres --single`,
//! as the cluster's owner) running a case's query, collection on only inside the access
//! method's entry point (hl_btree's `hl_getbitmap`, which runs the server's `btgetbitmap` or
//! the variant), the query repeated between dump boundaries so counts per TID are stable; and
//! the model's callgrind of the same case (`hotloops run` under callgrind, collection on inside
//! the kernel). Functions are grouped by what they do ([`GROUPS`]: the loop, the TIDBitmap
//! insert, the leaf read, the page step, the buffer manager, ...), each model function and each
//! server function in one group, so every instruction is in exactly one row and the rows add
//! up to the whole amgetbitmap on both sides.

use super::bench::{self, SEED_SET, loaded_cluster};
use super::single;
use super::{Install, cpu_name};
use crate::measure::callgrind::{Parsed, profile_cases};
use crate::study::Size;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// A group of functions that do one job, named by patterns on each side: `prefix*`, `*suffix`,
/// `*part*` or an exact name; the first group whose pattern matches takes a function.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    /// Row name.
    pub name: &'static str,
    /// The model's functions (Rust paths as callgrind names them).
    pub model: &'static [&'static str],
    /// The server's functions.
    pub server: &'static [&'static str],
}

/// tid-batch's mapping from the model's functions to the server's (kept with the server
/// measurement, since the model's names are the crate's own).
pub const GROUPS: &[Group] = &[
    Group {
        name: "amgetbitmap loop (btgetbitmap / the variant's loop)",
        model: &["hotloops_tid_batch_*", "hl_tid_batch_*", "hotloops_local_index_*", "hl_local_index_*"],
        server: &["btgetbitmap", "hotloops_tid_batch_*", "hl_getbitmap"],
    },
    Group { name: "TIDBitmap insert (tbm_add_tuples, its hash table)", model: &["*tidbitmap*", "*TidBitmap*", "*pagetable*"], server: &["tbm_*", "pagetable_*", "murmurhash*"] },
    Group { name: "leaf read (_bt_readpage, _bt_checkkeys, saving items)", model: &["*bt_readpage*", "*checkkeys*", "*saveitem*", "*check_compare*", "*set_startikey*", "*tuple_before_array_skeys*"], server: &["_bt_readpage", "_bt_checkkeys", "_bt_check_compare", "_bt_saveitem", "_bt_setuppostingitems", "_bt_savepostingitem", "_bt_set_startikey", "_bt_keep_natts_fast", "_bt_tuple_before_array_skeys"] },
    Group { name: "page step (_bt_next, _bt_steppage, _bt_readnextpage)", model: &["*steppage*", "*bt_next*", "*readnextpage*", "*readfirstpage*", "*bt_parallel_done*", "hl_tb_bt_steppage*", "hl_bt_steppage*"], server: &["_bt_next", "_bt_steppage", "_bt_readnextpage", "_bt_readfirstpage", "_bt_parallel_*", "_bt_drop_lock_and_maybe_pin", "_bt_killitems"] },
    Group { name: "descent and array keys (_bt_first, _bt_search, primitive scans)", model: &["*bt_first*", "*bt_search*", "*binsrch*", "*bt_compare*", "*moveright*", "*prim_scan*", "*array_keys*", "*preprocess*", "*bt_getroot*"], server: &["_bt_first", "_bt_search", "_bt_binsrch*", "_bt_compare", "_bt_moveright", "_bt_preprocess_*", "_bt_start_prim_scan", "_bt_start_array_keys", "_bt_advance_array_keys", "_bt_getroot", "_bt_endpoint", "_bt_get_endpoint"] },
    Group { name: "buffer manager (read, pin, lock, release)", model: &["*bufmgr*", "*PrivateRefCount*", "*BufferPool*", "*buffer*", "*Buffer*", "*bt_getbuf*", "*bt_relbuf*", "*bt_relandgetbuf*", "*bt_checkpage*", "*bt_unlockbuf*"], server: &["ReadBuffer*", "*Buffer*", "_bt_getbuf", "_bt_relbuf", "_bt_relandgetbuf", "_bt_lockbuf", "_bt_unlockbuf", "_bt_checkpage", "LWLock*", "PinBuffer*", "UnpinBuffer*", "Start*Buffer*", "WaitReadBuffers", "ResourceOwner*", "pgstat_*", "hash_search*", "hash_bytes*", "BufTable*", "GetPrivateRefCount*", "ReservePrivateRefCountEntry", "ForgetPrivateRefCountEntry", "smgr*", "md*", "FileRead*", "pg_pread*", "pread*", "__libc_pread*", "StrategyGetBuffer", "GetVictimBuffer", "LockBufHdr", "TerminateBufferIO", "io_*", "pgaio_*", "read_stream_*"] },
    Group { name: "memory and the rest", model: &["*"], server: &["*"] },
];

fn matches(pattern: &str, name: &str) -> bool {
    match (pattern.strip_prefix('*'), pattern.strip_suffix('*')) {
        (Some(p), _) if pattern.ends_with('*') && pattern.len() > 1 => name.contains(p.trim_end_matches('*')),
        (Some(p), _) => name.ends_with(p),
        (None, Some(p)) => name.starts_with(p),
        (None, None) => name == pattern || name.strip_prefix(pattern).is_some_and(|r| r.starts_with('.')),
    }
}

/// The group of a function on one side.
pub fn group_of(name: &str, model: bool) -> &'static str {
    GROUPS.iter().find(|g| (if model { g.model } else { g.server }).iter().any(|p| matches(p, name))).map(|g| g.name).unwrap_or("memory and the rest")
}

/// One function's counts per TID.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Function {
    /// Name as callgrind reports it.
    pub name: String,
    /// Its group.
    pub group: String,
    /// Own instructions a TID.
    pub self_per_tid: f64,
    /// Inclusive instructions a TID.
    pub inclusive_per_tid: f64,
    /// Calls a TID.
    pub calls_per_tid: f64,
}

/// One side's counts of one case.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Side {
    /// `server 15.20: tid-batch/per-tid` or `model: tid-batch/per-tid @ btree-many`.
    pub what: String,
    /// TIDs counted over.
    pub tids: u64,
    /// Instructions a TID in the whole entry point.
    pub total_per_tid: f64,
    /// Per function, largest own cost first.
    pub functions: Vec<Function>,
}

/// A function a stripped binary has no symbol for (Debian's postgres keeps only its exports):
/// callgrind names it by address.
fn unnamed(name: &str) -> bool {
    name.starts_with("0x")
}

/// The group of `name` in `p`: by its name, or, unnamed (a static function of a stripped
/// binary), by the nearest named function that calls it.
fn group_in(p: &Parsed, name: &str, model: bool) -> &'static str {
    let mut seen = std::collections::BTreeSet::new();
    let mut todo = std::collections::VecDeque::from([name.to_string()]);
    while let Some(n) = todo.pop_front() {
        if !unnamed(&n) {
            return group_of(&n, model);
        }
        if seen.insert(n.clone()) {
            todo.extend(p.callers.get(&n).into_iter().flatten().cloned());
        }
    }
    "memory and the rest"
}

/// An unnamed function's display name: its address and its named callers.
fn display_name(p: &Parsed, name: &str) -> String {
    if !unnamed(name) {
        return name.to_string();
    }
    let callers: Vec<&str> = p.callers.get(name).into_iter().flatten().map(String::as_str).take(2).collect();
    format!("static {name} (called by {})", if callers.is_empty() { "?".to_string() } else { callers.join(", ") })
}

impl Side {
    fn from(what: String, p: &Parsed, tids: u64, model: bool) -> Side {
        let t = tids.max(1) as f64;
        let mut names: Vec<&String> = p.self_cost.keys().collect();
        names.sort();
        let mut functions: Vec<Function> = names
            .into_iter()
            .map(|n| Function {
                name: display_name(p, n),
                group: group_in(p, n, model).to_string(),
                self_per_tid: p.self_cost[n] as f64 / t,
                inclusive_per_tid: p.inclusive(n) as f64 / t,
                calls_per_tid: p.calls.get(n).copied().unwrap_or(0) as f64 / t,
            })
            .filter(|f| f.self_per_tid > 0.0)
            .collect();
        functions.sort_by(|a, b| b.self_per_tid.total_cmp(&a.self_per_tid));
        Side { what, tids, total_per_tid: p.total as f64 / t, functions }
    }

    /// Own instructions a TID of every function in `group`.
    pub fn group_total(&self, group: &str) -> f64 {
        self.functions.iter().filter(|f| f.group == group).map(|f| f.self_per_tid).sum()
    }
}

/// One case and variant: the server's counts beside the model's.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Comparison {
    /// Server case (`btree-many`, `btree-few`).
    pub case: String,
    /// Server variant.
    pub variant: String,
    /// The server's cache state (`warm`: every page in shared buffers; `os-cache`: 128 kB of
    /// shared buffers, every page read through the OS page cache).
    #[serde(default = "warm")]
    pub cache_state: String,
    /// The server's counts.
    pub server: Side,
    /// The model's counts of its counterpart, if it has one.
    pub model: Option<Side>,
}

impl Comparison {
    /// Per group: (group, model, server) own instructions a TID.
    pub fn groups(&self) -> Vec<(&'static str, f64, f64)> {
        GROUPS.iter().map(|g| (g.name, self.model.as_ref().map(|m| m.group_total(g.name)).unwrap_or(f64::NAN), self.server.group_total(g.name))).collect()
    }

    /// model / server - 1 of the whole entry point.
    pub fn whole_gap(&self) -> Option<f64> {
        self.model.as_ref().map(|m| m.total_per_tid / self.server.total_per_tid - 1.0)
    }

    /// The group with the largest gap in instructions a TID, and that gap (model - server).
    pub fn largest_gap(&self) -> Option<(&'static str, f64)> {
        self.model.as_ref()?;
        self.groups().into_iter().map(|(g, m, s)| (g, m - s)).max_by(|a, b| a.1.abs().total_cmp(&b.1.abs()))
    }
}

/// The name a model function and the server function it models share: the last path segment
/// of a Rust name (`<TidBitmap as TidSink>::add_tuples` -> `add_tuples`), a C name without its
/// leading underscores, gcc's clone suffix and the file's prefix (`tbm_add_tuples` ->
/// `add_tuples`, `_bt_readpage` -> `bt_readpage`, `pagetable_insert_hash_internal` -> `insert`).
pub fn function_key(name: &str) -> String {
    let last = name.rsplit("::").next().unwrap_or(name);
    let base = last.split('.').next().unwrap_or(last).trim_start_matches('_');
    // The model's C carries its compiler configuration after `__` (`hl_bt_compare__gcc12_upstream`).
    let base = base.split("__").next().unwrap_or(base);
    // The crate's kernel names carry a study prefix or a case suffix the C loop does not;
    // simplehash names its insert after the table and the variant.
    // The model's C named for a server function `hl_pg_` (`hl_pg_bt_checkkeys`: `_bt_checkkeys`).
    let base = base.strip_prefix("hotloops_").or_else(|| base.strip_prefix("hl_pg_")).or_else(|| base.strip_prefix("hl_")).unwrap_or(base);
    let base = base.strip_suffix("_btree").unwrap_or(base);
    let base = base.strip_prefix("tbm_").or_else(|| base.strip_prefix("pagetable_")).unwrap_or(base);
    // Rust spells `FunctionCall2Coll` as `function_call2_coll`.
    let key: String = base.strip_suffix("_hash_internal").unwrap_or(base).chars().filter(|c| *c != '_').map(|c| c.to_ascii_lowercase()).collect();
    // Model functions named for the one path of the server function they model.
    match key.as_str() {
        "hashsearchfind" => "hashsearchwithhashvalue".into(),
        "btsteppagebuf" => "btsteppage".into(),
        // local-index's kernels are the extension's copy loops of seed 000's v1/v2.
        "localindexstoreeach" => "tidbatchbatchedstore".into(),
        "localindexlocal" => "tidbatchbatchedlocal".into(),
        _ => key,
    }
}

impl Comparison {
    /// Per function met on both sides by [`function_key`]: (name, model, server) own
    /// instructions a TID, the largest gap first, named as the server names it (the model's
    /// name where the server has none); a function on one side only has 0 on the other.
    pub fn function_gaps(&self) -> Vec<(String, f64, f64)> {
        self.function_pairs().into_iter().map(|p| (p.name, p.model_own, p.server_own)).collect()
    }

    /// [`Comparison::function_gaps`] with each side's calls a TID: where the calls agree and
    /// the own cost does not, the model does the same steps in fewer or more instructions a
    /// step; where the calls differ, it does other steps.
    pub fn function_pairs(&self) -> Vec<FunctionPair> {
        let Some(model) = &self.model else { return Vec::new() };
        let mut rows: Vec<(String, FunctionPair)> = Vec::new();
        for (server, fs) in [(false, &model.functions), (true, &self.server.functions)] {
            for f in fs.iter() {
                let k = function_key(&f.name);
                let i = match rows.iter().position(|r| r.0 == k) {
                    Some(i) => i,
                    None => {
                        rows.push((k, FunctionPair { name: f.name.clone(), ..Default::default() }));
                        rows.len() - 1
                    }
                };
                let r = &mut rows[i].1;
                if server {
                    r.name = f.name.clone();
                    r.server_own += f.self_per_tid;
                    r.server_calls += f.calls_per_tid;
                } else {
                    r.model_own += f.self_per_tid;
                    r.model_calls += f.calls_per_tid;
                }
            }
        }
        rows.sort_by(|a, b| (b.1.model_own - b.1.server_own).abs().total_cmp(&(a.1.model_own - a.1.server_own).abs()));
        rows.into_iter().map(|(_, r)| r).collect()
    }
}

/// One function met on both sides (or one side only: 0 on the other), a TID.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FunctionPair {
    /// The server's name for it (the model's where the server has none).
    pub name: String,
    /// The model's own instructions.
    pub model_own: f64,
    /// The server's own instructions.
    pub server_own: f64,
    /// The model's calls.
    pub model_calls: f64,
    /// The server's calls.
    pub server_calls: f64,
}

fn warm() -> String {
    "warm".into()
}

/// One server's counts.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ServerCounts {
    /// `postgres --version`.
    pub server_version: String,
    /// Rows of table3.
    pub rows: u64,
    /// Per case and variant.
    pub comparisons: Vec<Comparison>,
}

/// The run (pg-instructions.json).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct InstructionsReport {
    /// Host CPU (counts do not depend on it, but the binary's code does).
    pub host_cpu: String,
    /// Per server.
    pub servers: Vec<ServerCounts>,
    /// The command line.
    pub command: String,
}

/// The model's counterpart of a server case, cache state and variant: (model variant, model
/// case). Every server variant of the per-TID shape is modelled by `tid-batch/per-tid` (the
/// stock loop and hl_btree's copy of it), the batched ones by `tid-batch/batched`; btree-many
/// read through the OS page cache is the model's btree-many-miss. The seed's v1/v2 copy loops
/// (`batched-store`, `batched-local`) are local-index's `store-each` and `local` on
/// `table3-server`, the one local-index case that runs the server's whole amgetbitmap
/// (descent, shared buffers, 18's leaf read) around the copy loop; its pages are all in shared
/// buffers, so it has no os-cache counterpart.
pub fn model_counterpart(case: &str, state: &str, variant: &str) -> Option<(&'static str, &'static str)> {
    let local = match variant {
        "tid-batch/batched-store" => Some("local-index/store-each"),
        "tid-batch/batched-local" => Some("local-index/local"),
        _ => None,
    };
    if let Some(v) = local {
        return ((case, state) == ("btree-many", "warm")).then_some((v, "table3-server"));
    }
    let v = match variant {
        "tid-batch/server" | "tid-batch/per-tid" => "tid-batch/per-tid",
        "tid-batch/batched" => "tid-batch/batched",
        _ => return None,
    };
    let c = match (case, state) {
        ("btree-many", "warm") => "btree-many",
        ("btree-many", "os-cache") => "btree-many-miss",
        ("btree-few", "warm") => "btree-few",
        _ => return None,
    };
    Some((v, c))
}

/// Count `cases` (tid-batch's server cases) in each cache state under every variant on one
/// server.
pub fn count_server(inst: &Install, so: &Path, rows: u64, cases: &[String], states: &[String], variants: &[&str]) -> Result<ServerCounts> {
    let (c, data) = loaded_cluster(inst, so, rows)?;
    crate::say!("instructions {}: {data}", inst.short_version);
    let reps = 3;
    let mut comparisons = Vec::new();
    for (state, case) in states.iter().flat_map(|s| cases.iter().map(move |c| (s, c))) {
        let q = format!("{};", bench::case_query(case, rows)?);
        let tids_per_query: u64 = if case == "btree-few" { 10 } else { rows };
        let mut stmts: Vec<String> = SEED_SET.split(';').map(str::trim).filter(|s| !s.is_empty()).map(|s| format!("{s};")).collect();
        let mut n = 0;
        for v in variants {
            stmts.push(format!("SET hl_btree.variant = '{v}';"));
            stmts.push(q.clone());
            stmts.push(single::boundary(n));
            n += 1;
            for _ in 0..reps {
                stmts.push(q.clone());
            }
            stmts.push(single::boundary(n));
            n += 1;
        }
        crate::say!("instructions {}: callgrind, {case}, {state}", inst.short_version);
        let run = single::Run { settings: bench::state_settings(state)?.into_iter().map(|(k, v)| (k.to_string(), v)).collect(), ..Default::default() };
        let parts = single::callgrind(&c, &stmts, "hl_getbitmap", &run)?;
        for (k, v) in variants.iter().enumerate() {
            let p = parts.get(2 * k + 1).with_context(|| format!("callgrind: no dump for {v} on {case}"))?;
            if p.total == 0 {
                bail!("callgrind counted nothing inside hl_getbitmap for {v} on {case}: was the plan a Bitmap Index Scan on the hl_btree index?");
            }
            let server = Side::from(format!("server {}: {v}", inst.short_version), p, tids_per_query * reps, false);
            comparisons.push(Comparison { case: case.clone(), variant: v.to_string(), cache_state: state.clone(), server, model: None });
        }
    }
    Ok(ServerCounts { server_version: inst.version.clone(), rows, comparisons })
}

/// The model's counts of every comparison's counterpart (at test size: per-TID counts do not
/// depend on the scale).
pub fn add_model(counts: &mut [ServerCounts]) -> Result<()> {
    let exe = crate::host::worker::exe()?;
    let mut cache: Vec<((&str, &str), Side)> = Vec::new();
    for s in counts.iter_mut() {
        for c in s.comparisons.iter_mut() {
            let Some(key) = model_counterpart(&c.case, &c.cache_state, &c.variant) else { continue };
            if let Some((_, side)) = cache.iter().find(|(k, _)| *k == key) {
                c.model = Some(side.clone());
                continue;
            }
            let (items, p) = profile_cases(&exe, key.0, &[key.1], Size::Test)?.remove(0);
            let side = Side::from(format!("model: {} @ {}", key.0, key.1), &p, items, true);
            cache.push((key, side.clone()));
            c.model = Some(side);
        }
    }
    Ok(())
}

/// Count on every server, then the model.
pub fn run(servers: &[(Install, PathBuf)], rows: u64, cases: &[String], states: &[String]) -> Result<InstructionsReport> {
    crate::measure::callgrind::check_valgrind().map_err(|e| super::UsageError(format!("{e:#}")))?;
    let mut out = Vec::new();
    for (inst, so) in servers {
        out.push(count_server(inst, so, rows, cases, states, &bench::VARIANTS)?);
    }
    add_model(&mut out)?;
    Ok(InstructionsReport { host_cpu: cpu_name(), servers: out, command: std::env::args().collect::<Vec<_>>().join(" ") })
}

/// The report as Markdown: per server, case and variant the groups side by side, then the
/// server's heaviest functions.
pub fn markdown(r: &InstructionsReport) -> String {
    use std::fmt::Write as _;
    let mut m = format!(
        "# hotloops pg --instructions: the server's instructions beside the model's\n\n- host: {}\n- server: callgrind over a single-user backend, collection inside hl_btree's amgetbitmap (`hl_getbitmap`), the query three times after a warm-up; model: `hotloops run` under callgrind, collection inside the kernel, test size\n- command: `{}`\n\nInstructions a TID, own cost summed per group of functions (every function in one group, so the rows add up to the whole); gap = model - server.\n\n",
        r.host_cpu, r.command
    );
    for s in &r.servers {
        let _ = writeln!(m, "## {} ({} rows)\n", s.server_version, s.rows);
        for c in &s.comparisons {
            let whole = c.whole_gap().map(|g| format!("{:+.1}%", g * 100.0)).unwrap_or_else(|| "no model counterpart".into());
            let _ = writeln!(m, "### {} / {} / `{}`: server {:.1} instructions a TID, model {} ({whole})\n", c.case, c.cache_state, c.variant, c.server.total_per_tid, c.model.as_ref().map(|x| format!("{:.1}", x.total_per_tid)).unwrap_or_else(|| "-".into()));
            if c.model.is_some() {
                m += "| group | model | server | gap |\n|---|---:|---:|---:|\n";
                for (g, mo, se) in c.groups() {
                    let _ = writeln!(m, "| {g} | {mo:.1} | {se:.1} | {:+.1} |", mo - se);
                }
                if let (Some((g, gap)), Some((f, fm, fs))) = (c.largest_gap(), c.function_gaps().first()) {
                    let _ = writeln!(m, "\nLargest gap: {g} ({gap:+.1} a TID); function `{f}`: model {fm:.1}, server {fs:.1} ({:+.1}).", fm - fs);
                }
                // Same calls, other cost: the same steps compiled differently (or a step's
                // inside left out); other calls: other steps.
                let pairs = c.function_pairs();
                let same = |p: &FunctionPair| (p.model_calls - p.server_calls).abs() <= 0.005 * p.server_calls.max(1.0);
                let in_same: f64 = pairs.iter().filter(|p| same(p)).map(|p| p.model_own - p.server_own).sum();
                let _ = writeln!(
                    m,
                    "\nPer function, the largest gaps first (own instructions and calls a TID; gcc's clones summed): {:+.1} a TID of the gap is in functions called as often on both sides.\n\n| function | model own | server own | gap | model calls | server calls |\n|---|---:|---:|---:|---:|---:|",
                    in_same
                );
                for p in pairs.iter().take(20) {
                    let mark = if same(p) { "" } else { " (differ)" };
                    let _ = writeln!(m, "| `{}` | {:.1} | {:.1} | {:+.1} | {:.2} | {:.2}{mark} |", p.name, p.model_own, p.server_own, p.model_own - p.server_own, p.model_calls, p.server_calls);
                }
                m += "\n";
            }
            m += "| server function | group | own a TID | inclusive a TID | calls a TID |\n|---|---|---:|---:|---:|\n";
            for f in c.server.functions.iter().take(12) {
                let _ = writeln!(m, "| `{}` | {} | {:.2} | {:.2} | {:.3} |", f.name, f.group.split(' ').next().unwrap_or(""), f.self_per_tid, f.inclusive_per_tid, f.calls_per_tid);
            }
            m += "\n";
        }
    }
    m
}

/// Write pg-instructions.json and pg-instructions.md into `out`.
pub fn write(r: &InstructionsReport, out: &mut crate::host::outdir::OutDir) -> Result<(PathBuf, PathBuf)> {
    super::bench::write_pair(out, "pg-instructions", serde_json::to_string_pretty(r)?, markdown(r))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_falls_in_one_group() {
        assert_eq!(group_of("tbm_add_tuples", false), GROUPS[1].name);
        assert_eq!(group_of("_bt_readpage", false), GROUPS[2].name);
        assert_eq!(group_of("_bt_readnextpage.constprop.0", false), GROUPS[3].name);
        assert_eq!(group_of("ReadBufferExtended", false), GROUPS[5].name);
        assert_eq!(group_of("btgetbitmap", false), GROUPS[0].name);
        assert_eq!(group_of("palloc", false), "memory and the rest");
        assert_eq!(group_of("<hotloops::pg::tidbitmap::TidBitmap as hotloops::pg::sink::TidSink>::add_tuples", true), GROUPS[1].name);
        assert_eq!(group_of("hl_tid_batch_per_tid_btree", true), GROUPS[0].name);
        assert_eq!(group_of("hotloops_local_index_store_each", true), GROUPS[0].name);
        assert_eq!(group_of("hotloops::pg::nbtree::bt_readpage_all", true), GROUPS[2].name);
        // The descent's comparisons and the buffer mapping's hash are not the leaf's or the bitmap's.
        assert_eq!(group_of("_bt_compare", false), GROUPS[4].name);
        assert_eq!(group_of("hotloops::pg::nbtsearch::bt_compare", true), GROUPS[4].name);
        assert_eq!(group_of("hl_bt_compare__gcc12_upstream", true), GROUPS[4].name);
        assert_eq!(group_of("hl_GetPrivateRefCountEntry__gcc12_upstream", true), GROUPS[5].name);
        assert_eq!(group_of("hash_bytes", false), GROUPS[5].name);
        assert_eq!(group_of("hotloops::pg::nbtreadpage::bt_set_startikey", true), GROUPS[2].name);
        assert_eq!(group_of("_bt_tuple_before_array_skeys.isra.0", false), GROUPS[2].name);
    }

    #[test]
    fn a_model_function_meets_the_server_function_it_models() {
        assert_eq!(function_key("<hotloops::pg::tidbitmap::TidBitmap as hotloops::pg::sink::TidSink>::add_tuples"), function_key("tbm_add_tuples"));
        assert_eq!(function_key("hotloops::pg::nbtreadpage::bt_readpage"), function_key("_bt_readpage"));
        assert_eq!(function_key("_bt_tuple_before_array_skeys.isra.0"), function_key("hotloops::pg::nbtreadpage::bt_tuple_before_array_skeys"));
        assert_eq!(function_key("hotloops::pg::fmgr::function_call2_coll"), function_key("FunctionCall2Coll"));
        assert_eq!(function_key("hl_FunctionCall2Coll"), function_key("FunctionCall2Coll"));
        assert_eq!(function_key("hl_bt_compare__gcc12_upstream"), function_key("_bt_compare"));
        assert_eq!(function_key("hl_GetPrivateRefCountEntry__gcc12_upstream"), function_key("GetPrivateRefCountEntry"));
        assert_ne!(function_key("hl_bt_compare__gcc12_upstream"), function_key("_bt_compare_array_elements"));
        assert_ne!(function_key("_bt_readpage"), function_key("_bt_checkkeys"));
        assert_eq!(function_key("hl_pg_bt_checkkeys__gcc12_upstream"), function_key("_bt_checkkeys"));
        assert_eq!(function_key("bt_check_compare.constprop.0"), function_key("_bt_check_compare"));
        assert_eq!(function_key("hotloops::pg::tidbitmap::Pagetable::insert"), function_key("pagetable_insert_hash_internal"));
        assert_eq!(function_key("hl_tid_batch_batched_btree"), function_key("hotloops_tid_batch_batched"));
        assert_eq!(function_key("hotloops_local_index_store_each"), function_key("hotloops_tid_batch_batched_store"));
        assert_eq!(function_key("hotloops_local_index_local"), function_key("hotloops_tid_batch_batched_local"));
        assert_eq!(function_key("hotloops::pg::bufmgr::hash_search_find"), function_key("hash_search_with_hash_value"));
        assert_eq!(function_key("hotloops::pg::nbtscan::bt_steppage_buf"), function_key("_bt_steppage"));
        let f = |name: &str, own: f64| Function { name: name.into(), group: group_of(name, name.contains("::")).into(), self_per_tid: own, inclusive_per_tid: own, calls_per_tid: 1.0 };
        let side = |fs: Vec<Function>| Side { what: String::new(), tids: 1, total_per_tid: fs.iter().map(|x| x.self_per_tid).sum(), functions: fs };
        let c = Comparison {
            case: "btree-many".into(),
            variant: "tid-batch/per-tid".into(),
            cache_state: "warm".into(),
            server: side(vec![f("_bt_readpage", 45.0), f("tbm_add_tuples", 63.0)]),
            model: Some(side(vec![f("hotloops::pg::nbtreadpage::bt_readpage", 39.0), f("hotloops::pg::tidbitmap::TidBitmap::add_tuples", 62.0)])),
        };
        let g = c.function_gaps();
        assert_eq!((g[0].0.as_str(), g[0].1, g[0].2), ("_bt_readpage", 39.0, 45.0));
        assert_eq!(g.len(), 2);
        let p = &c.function_pairs()[0];
        assert_eq!((p.model_calls, p.server_calls), (1.0, 1.0));
        let md = markdown(&InstructionsReport { host_cpu: "h".into(), command: "c".into(), servers: vec![ServerCounts { server_version: "18".into(), rows: 1, comparisons: vec![c.clone()] }] });
        assert!(md.contains("| `_bt_readpage` | 39.0 | 45.0 | -6.0 | 1.00 | 1.00 |") && md.contains("-7.0 a TID of the gap is in functions called as often"), "{md}");
        assert_eq!(c.largest_gap().unwrap().0, GROUPS[2].name);
    }

    #[test]
    fn each_cache_state_meets_its_model_case() {
        assert_eq!(model_counterpart("btree-many", "warm", "tid-batch/server"), Some(("tid-batch/per-tid", "btree-many")));
        assert_eq!(model_counterpart("btree-many", "os-cache", "tid-batch/batched"), Some(("tid-batch/batched", "btree-many-miss")));
        assert_eq!(model_counterpart("btree-few", "os-cache", "tid-batch/per-tid"), None);
        assert_eq!(model_counterpart("btree-many", "warm", "tid-batch/batched-store"), Some(("local-index/store-each", "table3-server")));
        assert_eq!(model_counterpart("btree-many", "warm", "tid-batch/batched-local"), Some(("local-index/local", "table3-server")));
        assert_eq!(model_counterpart("btree-many", "os-cache", "tid-batch/batched-local"), None);
        assert_eq!(model_counterpart("btree-few", "warm", "tid-batch/batched-store"), None);
        // A file of an earlier shape (no cache state) was counted warm.
        let v = serde_json::json!({"case": "btree-many", "variant": "v", "server": {"what": "w", "tids": 1, "total_per_tid": 1.0, "functions": []}, "model": null});
        assert_eq!(serde_json::from_value::<Comparison>(v).unwrap().cache_state, "warm");
    }
}
