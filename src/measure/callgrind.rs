//! Exact instruction counts: valgrind's callgrind runs the hotloops binary itself
//! (`hotloops run <id>`) with `--toggle-collect=<kernel symbol>`, so only the kernel (and what
//! it calls) is counted, not the workload build or the harness. Counts are per run identical.

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// Instruction counts of one kernel on one case.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct InstrCount {
    /// Variant id.
    pub id: String,
    /// Case name.
    pub case: String,
    /// Items the run processed.
    pub items: u64,
    /// Instructions executed inside the kernel, its callees included.
    pub inclusive: u64,
    /// Instructions of the kernel's own symbols (entry + helpers), callees excluded.
    pub own: u64,
}

impl InstrCount {
    /// Inclusive instructions per item.
    pub fn inclusive_per_item(&self) -> f64 {
        self.inclusive as f64 / self.items.max(1) as f64
    }
    /// Own instructions per item.
    pub fn own_per_item(&self) -> f64 {
        self.own as f64 / self.items.max(1) as f64
    }
}

/// Is valgrind on PATH? Err says what to install.
pub fn check_valgrind() -> Result<String> {
    match crate::host::cleanup::output(Command::new("valgrind").arg("--version")) {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).trim().to_string()),
        _ => Err(crate::host::Unavailable("valgrind is not installed: instruction counts need it (`apt-get install valgrind`)".into()).into()),
    }
}

/// Count variant `id` on case `case` (an id of its study's catalogue) by running
/// `exe run <id> --case <case> --size <size>` under callgrind; the items come from that run's
/// own line, so nothing is built here.
pub fn count(exe: &Path, id: &str, case: &str, size: crate::study::Size) -> Result<InstrCount> {
    Ok(count_cases(exe, id, &[case], size)?.remove(0))
}

/// What `hotloops run` calls before each case's runs and once after the last, with the case's
/// index: callgrind dumps its counts on entering it (`--dump-before`), so one valgrind process
/// counts every case of a variant, one dump a case, and pays its start-up once.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn hotloops_callgrind_boundary(case_index: u64) {
    std::hint::black_box(case_index);
}

/// Count variant `id` on each of `cases` in one valgrind process (`exe run <id> --case A
/// --case B ...`): a dump per case, split at [`hotloops_callgrind_boundary`]. Each kernel's
/// own count is the same as in a process of its own; an inclusive count can differ slightly
/// (under 0.1%; tests/layout.rs) where the kernel calls malloc in a heap earlier cases used,
/// the same way every run, since the cases run in catalogue order. [`count_many`] does not
/// batch a study that measures the allocator (1% there).
pub fn count_cases(exe: &Path, id: &str, cases: &[&str], size: crate::study::Size) -> Result<Vec<InstrCount>> {
    let (_, v) = crate::study::variant(id)?;
    let symbols = v.symbols();
    Ok(profile_cases(exe, id, cases, size)?
        .into_iter()
        .zip(cases)
        .map(|((items, parsed), case)| InstrCount { id: id.to_string(), case: case.to_string(), items, inclusive: parsed.total, own: own_cost(&parsed, &symbols) })
        .collect())
}

/// Like [`count_cases`], with each case's whole dump (every function's own and inclusive
/// cost, and calls) and its items: what `hotloops pg --instructions` sets beside the server's.
pub fn profile_cases(exe: &Path, id: &str, cases: &[&str], size: crate::study::Size) -> Result<Vec<(u64, Parsed)>> {
    let (_, v) = crate::study::variant(id)?;
    if cases.is_empty() {
        return Ok(vec![]);
    }
    let (dir, _dir_guard) = crate::host::cleanup::temp_dir("hotloops-callgrind-")?;
    let out = dir.path().join("callgrind.out");
    let mut cmd = Command::new("valgrind");
    // A killed run's valgrind would count on for minutes: it dies with the run.
    crate::host::cleanup::die_with_parent(&mut cmd);
    // No gdbserver: its vgdb-pipe files would be left in TMPDIR by a killed valgrind.
    cmd.arg("--tool=callgrind")
        .arg("--vgdb=no")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(format!("--toggle-collect={}", v.kernel))
        .arg("--dump-before=hotloops_callgrind_boundary")
        // Instruction positions: a function's calls are its first instruction's runs.
        .args(["--collect-atstart=no", "--compress-strings=no", "--compress-pos=no", "--dump-instr=yes"])
        .arg(exe)
        .args(["run", id, "--size", size.name()]);
    for c in cases {
        cmd.args(["--case", c]);
    }
    let o = crate::host::cleanup::output(&mut cmd).context("running valgrind")?;
    if !o.status.success() {
        bail!("callgrind run of {id} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    let items = run_items_all(&stdout);
    if items.len() != cases.len() {
        bail!("callgrind run of {id}: `hotloops run` printed {} item counts for {} cases", items.len(), cases.len());
    }
    // Dump parts: 1 before the first boundary, 2..=N+1 the cases, N+2 the exit.
    let mut parts: Vec<(u64, Parsed)> = vec![];
    for e in std::fs::read_dir(dir.path())? {
        let path = e?.path();
        // Only the dumps: valgrind may keep other files in its TMPDIR.
        if !path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("callgrind.out")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
        let parsed = parse(&text).with_context(|| format!("{}", path.display()))?;
        let part = parsed.part.with_context(|| format!("{}: no `part:` line", path.display()))?;
        parts.push((part, parsed));
    }
    parts.sort_by_key(|(p, _)| *p);
    if parts.len() != cases.len() + 2 || parts.iter().enumerate().any(|(i, (p, _))| *p != i as u64 + 1) {
        bail!("callgrind run of {id}: {} dump parts for {} cases, expected {}", parts.len(), cases.len(), cases.len() + 2);
    }
    let mut out = Vec::new();
    for ((case, items), (_, parsed)) in cases.iter().zip(items).zip(parts.drain(1..=cases.len())) {
        if parsed.total == 0 {
            bail!("callgrind collected nothing for {id} on {case}: is `{}` called by `hotloops run`?", v.kernel);
        }
        out.push((items, parsed));
    }
    Ok(out)
}

/// Exclusive cost of `symbols` and of the parts a C compiler split off or specialised from
/// them: gcc names those `<sym>.isra.0`, `<sym>.constprop.0`, `<sym>.part.0`, `<sym>.cold`
/// (callgrind reports each as its own function).
pub fn own_cost(parsed: &Parsed, symbols: &[&str]) -> u64 {
    parsed
        .self_cost
        .iter()
        .filter(|(name, _)| symbols.iter().any(|s| name.as_str() == *s || name.strip_prefix(*s).is_some_and(|r| r.starts_with('.'))))
        .map(|(_, c)| c)
        .sum()
}

/// The items per run from `hotloops run`'s line (`... : 20000 TIDs per run, digest ...`).
pub fn run_items(stdout: &str) -> Option<u64> {
    run_items_all(stdout).pop()
}

/// The items per run of every case line `hotloops run` printed, in order.
pub fn run_items_all(stdout: &str) -> Vec<u64> {
    stdout
        .lines()
        .filter(|l| l.contains(" per run, digest "))
        .filter_map(|line| line.rsplit_once("): ")?.1.split_whitespace().next()?.parse().ok())
        .collect()
}

/// One callgrind job: variant id, case id.
pub type Job<'a> = (&'a str, &'a str);

/// Count several (variant, case) jobs, as many valgrind processes at a time as there are cores,
/// from one work queue: instruction counts do not depend on what else runs (the wall clock is
/// measured before, never beside these). Results come back in job order, each naming its job.
pub fn count_many(exe: &Path, jobs: &[Job], size: crate::study::Size) -> Result<Vec<InstrCount>> {
    // One valgrind process a variant, over all its cases; a case of its own where the study
    // measures the allocator, whose work depends on the heap earlier cases left.
    let alone = |id: &str| crate::study::variant(id).is_ok_and(|(s, _)| s.info().heap_history_matters);
    let mut variants: Vec<(&str, Vec<&str>)> = vec![];
    for &(id, case) in jobs {
        match variants.iter_mut().find(|(v, _)| *v == id && !alone(id)) {
            Some((_, cs)) => cs.push(case),
            None => variants.push((id, vec![case])),
        }
    }
    // The longest first (most cases), so that no core is left with one at the end.
    variants.sort_by_key(|(_, cases)| std::cmp::Reverse(cases.len()));
    // Counting is exact whatever else runs: every core the process started with, even when
    // the caller is a report's pinned thread.
    let results = crate::host::affinity::untimed_map(&variants, |(id, cases)| count_cases(exe, id, cases, size));
    let mut all = vec![];
    for r in results {
        all.extend(r?);
    }
    // Back in job order.
    jobs.iter()
        .map(|(id, case)| all.iter().position(|c| c.id == *id && c.case == *case).map(|i| all.swap_remove(i)).with_context(|| format!("no count for {id} on {case}")))
        .collect()
}

/// What we read from a callgrind output file.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The dump's `part:` number (one file per dump).
    pub part: Option<u64>,
    /// Total collected `Ir`.
    pub total: u64,
    /// Exclusive `Ir` per function name.
    pub self_cost: HashMap<String, u64>,
    /// `Ir` of the calls each function made (their inclusive cost): with its own, its inclusive
    /// cost ([`Parsed::inclusive`]).
    pub call_cost: HashMap<String, u64>,
    /// Calls into each function: how often its first instruction ran, where the file has
    /// instruction positions (`--dump-instr=yes`), else the sum of its `calls=` lines (which
    /// callgrind 3.19 over-counts for some call sites under `--toggle-collect`: 90 calls
    /// recorded for a function whose first instruction ran 60 times).
    pub calls: HashMap<String, u64>,
    /// The functions that call each function.
    pub callers: HashMap<String, std::collections::BTreeSet<String>>,
}

impl Parsed {
    /// A function's inclusive `Ir`: its own and its callees' (a recursive function's calls to
    /// itself are counted again, as callgrind_annotate --inclusive does).
    pub fn inclusive(&self, name: &str) -> u64 {
        self.self_cost.get(name).copied().unwrap_or(0) + self.call_cost.get(name).copied().unwrap_or(0)
    }

    /// Every function named `name` or a gcc part of it (`name.isra.0`, `name.cold`, ...), for
    /// each of [`Parsed::self_cost`], [`Parsed::inclusive`] and [`Parsed::calls`] summed.
    pub fn function(&self, name: &str) -> (u64, u64, u64) {
        let is = |n: &str| n == name || n.strip_prefix(name).is_some_and(|r| r.starts_with('.'));
        let names: std::collections::BTreeSet<&String> = self.self_cost.keys().chain(self.call_cost.keys()).chain(self.calls.keys()).filter(|n| is(n)).collect();
        names.iter().fold((0, 0, 0), |(s, i, c), n| (s + self.self_cost.get(*n).copied().unwrap_or(0), i + self.inclusive(n), c + self.calls.get(*n).copied().unwrap_or(0)))
    }
}

/// Parse a callgrind out file (`--compress-strings` on or off): the totals line and the
/// exclusive cost per function (cost lines not following a `calls=` line).
pub fn parse(text: &str) -> Result<Parsed> {
    let mut p = Parsed::default();
    let mut names: HashMap<String, String> = HashMap::new();
    let mut current: Option<String> = None;
    let mut callee: Option<String> = None;
    let mut after_calls = false;
    let mut saw_events = false;
    // Columns before the costs (`positions: instr line` is two), and whether the first is an
    // instruction address.
    let (mut npos, mut by_instr) = (1usize, false);
    let mut call_lines: HashMap<String, u64> = HashMap::new();
    // Per function, its lowest instruction address and how often that instruction ran.
    let mut entry: HashMap<String, (u64, u64)> = HashMap::new();
    let resolve = |spec: &str, names: &mut HashMap<String, String>| -> String {
        // `(12) name` defines id 12; `(12)` refers to it; plain `name` when uncompressed.
        let spec = spec.trim();
        if let Some(rest) = spec.strip_prefix('(') {
            if let Some(close) = rest.find(')') {
                let id = rest[..close].to_string();
                let name = rest[close + 1..].trim();
                if !name.is_empty() {
                    names.insert(id.clone(), name.to_string());
                    return name.to_string();
                }
                return names.get(&id).cloned().unwrap_or(id);
            }
        }
        spec.to_string()
    };
    for line in text.lines() {
        if let Some(ev) = line.strip_prefix("events:") {
            saw_events = true;
            if ev.split_whitespace().next() != Some("Ir") {
                bail!("callgrind file counts `{}`, expected Ir first", ev.trim());
            }
        } else if let Some(v) = line.strip_prefix("positions:") {
            let cols: Vec<&str> = v.split_whitespace().collect();
            npos = cols.len().max(1);
            by_instr = cols.first() == Some(&"instr");
        } else if let Some(v) = line.strip_prefix("part:") {
            p.part = v.trim().parse().ok();
        } else if let Some(v) = line.strip_prefix("totals:").or_else(|| line.strip_prefix("summary:")) {
            p.total = v.split_whitespace().next().unwrap_or("0").parse().context("callgrind totals line")?;
        } else if let Some(f) = line.strip_prefix("fn=") {
            current = Some(resolve(f, &mut names));
            after_calls = false;
        } else if let Some(f) = line.strip_prefix("cfn=") {
            callee = Some(resolve(f, &mut names));
        } else if let Some(c) = line.strip_prefix("calls=") {
            after_calls = true;
            let n: u64 = c.split_whitespace().next().unwrap_or("0").parse().unwrap_or(0);
            if let Some(t) = &callee {
                *call_lines.entry(t.clone()).or_default() += n;
                if let Some(f) = &current {
                    p.callers.entry(t.clone()).or_default().insert(f.clone());
                }
            }
        } else if line.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-' || c == '*') {
            let mut it = line.split_whitespace();
            let pos = it.next().unwrap_or("");
            let cost: u64 = it.nth(npos - 1).unwrap_or("0").parse().unwrap_or(0);
            if after_calls {
                after_calls = false;
                if let Some(f) = &current {
                    *p.call_cost.entry(f.clone()).or_default() += cost;
                }
                continue;
            }
            if let Some(f) = &current {
                *p.self_cost.entry(f.clone()).or_default() += cost;
                // Ir of one instruction is how often it ran (uncompressed positions only).
                if let Some(addr) = by_instr.then(|| pos.strip_prefix("0x")).flatten().and_then(|h| u64::from_str_radix(h, 16).ok()) {
                    let e = entry.entry(f.clone()).or_insert((addr, 0));
                    if addr < e.0 {
                        *e = (addr, cost);
                    } else if addr == e.0 {
                        e.1 += cost;
                    }
                }
            }
        }
    }
    if !saw_events {
        bail!("not a callgrind output file (no `events:` line)");
    }
    p.calls = if by_instr { entry.into_iter().filter(|(f, _)| call_lines.contains_key(f)).map(|(f, (_, n))| (f, n)).collect() } else { call_lines };
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_self_and_total_with_compressed_names() {
        let f = "version: 1\ncreator: callgrind-3.19.0\nevents: Ir\n\nfn=(1) kernel\n10 5\n11 7\ncfn=(2) callee\ncalls=3 20\n12 100\n13 1\n\nfn=(2)\n20 100\n\ntotals: 113\n";
        let p = parse(f).unwrap();
        assert_eq!(p.total, 113);
        assert_eq!(p.self_cost["kernel"], 13);
        assert_eq!(p.self_cost["callee"], 100);
        assert_eq!((p.inclusive("kernel"), p.inclusive("callee"), p.calls["callee"]), (113, 100, 3));
        assert_eq!(p.function("kernel"), (13, 113, 0));
    }

    #[test]
    fn own_cost_counts_gcc_clones_and_cold_parts() {
        let f = "events: Ir\nfn=(1) k__gcc12_pg\n1 10\nfn=(2) k__gcc12_pg.cold\n1 3\nfn=(3) hl_h__gcc12_pg.isra.0\n1 5\nfn=(4) hl_h__gcc12_pg.constprop.0\n1 2\nfn=(5) k__gcc12_pgx\n1 100\nfn=(6) other\n1 1000\ntotals: 1120\n";
        let p = parse(f).unwrap();
        assert_eq!(own_cost(&p, &["k__gcc12_pg".into(), "hl_h__gcc12_pg".into()]), 20);
    }

    /// With instruction positions, a function's calls are the runs of its first instruction,
    /// not its `calls=` lines (which callgrind over-counts under `--toggle-collect`); costs
    /// are read past both position columns.
    #[test]
    fn calls_come_from_the_entry_instruction_with_instr_positions() {
        let f = "events: Ir\npositions: instr line\nfn=kernel\n0x10 0 4\n0x14 0 4\ncfn=callee\ncalls=6 0x40 0\n0x14 0 70\n\
                 fn=callee\n0x44 0 30\n0x40 0 4\n0x40 0 0\n0x48 0 36\nfn=orphan\n0x80 0 9\ntotals: 78\n";
        let p = parse(f).unwrap();
        assert_eq!((p.self_cost["kernel"], p.self_cost["callee"], p.inclusive("kernel")), (8, 70, 78));
        assert_eq!(p.calls["callee"], 4, "{:?}", p.calls);
        // A function no call reached (the collection's root) has no calls.
        assert!(!p.calls.contains_key("kernel") && !p.calls.contains_key("orphan"));
        assert_eq!(p.callers["callee"].iter().collect::<Vec<_>>(), ["kernel"]);
    }

    #[test]
    fn rejects_other_files() {
        assert!(parse("hello\n").is_err());
    }
}
