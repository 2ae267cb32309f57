//! Steady-state block extraction: one iteration of a kernel's hot loop, read from its
//! normalised asm snapshot with the CFG of [`crate::asm::structure`], with the out-of-line
//! helpers (`hl_*`) it calls inlined along their own steady path.
//!
//! Path choice is a documented heuristic (no profile): the loop is the largest cycle of blocks
//! that make no direct call to a named function outside the snapshot (page steps, scan starts
//! and panics are such calls, so they sit outside it); the path is the cheapest way round it
//! from its header (instructions, plus a large penalty per call, so a flush or page step taken
//! once a page loses to the per-item way round; fall-through wins ties, as compilers lay out
//! the likely side of an error check that way). A helper's path is the cheapest way from its
//! entry to a `ret`: loops inside a helper run zero times (dir-by-value: the 0-key case).
//!
//! The same rules read AArch64 snapshots: `bl`/`blr` are calls, `b`, `b.<cond>` (gcc writes
//! `ble`), `cbz`/`cbnz` and `tbz`/`tbnz` branches (their label the last operand), a `b` to a
//! symbol a tail call ([`crate::asm::structure::Insn`] knows both syntaxes).

use crate::asm::structure::{Cfg, Insn};
use anyhow::{Result, anyhow, bail};
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};

/// Cost of a block holding a call, so that the per-item way round beats a flush or page step.
const CALL_PENALTY: usize = 1000;
/// How deep helpers are inlined into one another.
const MAX_INLINE_DEPTH: usize = 4;

/// Where a study's hot loop lives, and why (study knowledge, not data).
#[derive(Clone, Copy, Debug)]
pub struct Site {
    /// The symbol holding the loop: the entry (`None`) or the helper whose name ends so.
    pub helper_suffix: Option<&'static str>,
    /// Why this loop is the study's steady state.
    pub why: &'static str,
}

/// The loop site of a study. Studies not listed (new kernels) use the entry's largest loop.
pub fn site_of(study: &str) -> Site {
    match study {
        "local-index" => Site { helper_suffix: None, why: "the copy loop (one TID a trip; the flush and page step are calls outside it)" },
        "dir-by-value" => Site { helper_suffix: None, why: "the per-tuple loop of _bt_readpage (one checkkeys call a tuple)" },
        "tid-batch" => Site { helper_suffix: Some("_btree"), why: "the B-tree AM's per-TID loop (the seed's 1.48x case)" },
        "read-stream" => Site { helper_suffix: Some("_check_page"), why: "the per-tuple signature check of one bloom page (a tuple rejected at its first word)" },
        "alloc-churn" => Site { helper_suffix: None, why: "the entry's largest loop (the study's cost is allocation and page faults, outside any loop)" },
        _ => Site { helper_suffix: None, why: "the entry's largest loop (no study-specific site)" },
    }
}

/// One instruction of the steady path, with the symbol it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathInsn {
    /// The instruction, as in the snapshot.
    pub insn: Insn,
    /// The symbol it belongs to (the loop's symbol or an inlined helper).
    pub symbol: String,
    /// Inlining depth: 0 for the loop's own code.
    pub depth: usize,
    /// For a jump: whether the path takes it (None for other instructions).
    pub taken: Option<bool>,
}

/// Does the call (or tail jump) at `k` enter an inlined helper (the next instruction is the
/// helper's)? A call that is not followed returns at once as far as the path goes: it moves
/// no stack slot.
pub fn enters_helper(path: &[PathInsn], k: usize) -> bool {
    path.get(k + 1).is_some_and(|n| n.depth == path[k].depth + 1)
}

/// One iteration of a kernel's hot loop.
#[derive(Clone, Debug)]
pub struct Steady {
    /// The symbol whose loop this is.
    pub symbol: String,
    /// Label of the loop header (where the path starts).
    pub header: String,
    /// Labels (or `#k` for unlabelled blocks) of the loop's blocks on the path, in order.
    pub path_blocks: Vec<String>,
    /// The instruction (or fall-through) that closes the loop: `jne .L1`, `fall-through`.
    pub back_edge: String,
    /// Instructions along one iteration, helpers inlined (calls, rets, pushes still there).
    pub insns: Vec<PathInsn>,
    /// Helpers inlined, in order.
    pub inlined: Vec<String>,
    /// Calls on the path to code outside the snapshot (indirect calls, named functions).
    pub unfollowed_calls: Vec<String>,
    /// Which rule chose the loop and the path.
    pub rule: String,
}

/// The normalised bodies of every symbol in a snapshot, by name, in snapshot order.
pub fn symbols_in(snapshot: &str) -> Vec<(String, String)> {
    let mut names = vec![];
    for line in snapshot.lines() {
        if let Some(n) = line.strip_suffix(':')
            && !n.starts_with('.')
            && !n.starts_with(char::is_whitespace)
            && !n.starts_with('#')
        {
            names.push(n.to_string());
        }
    }
    names
        .into_iter()
        .filter_map(|n| crate::asm::symbol_body(snapshot, &n).map(|b| (n.clone(), b.to_string())))
        .collect()
}

/// The symbol a call or tail jump goes to, if it names one: `call hl_x`,
/// `call qword ptr [rip + hl_x@GOTPCREL]`, `jmp qword ptr [rip + hl_x@GOTPCREL]`; AArch64
/// `bl hl_x`, `b hl_x` (`blr x8` and `br x16` name none).
pub fn call_target(insn: &Insn) -> Option<String> {
    let a = insn.args.trim();
    if matches!(insn.op.as_str(), "bl" | "b") {
        return (!a.starts_with(".L") && !a.is_empty()).then(|| a.trim_end_matches("@PLT").to_string());
    }
    if matches!(insn.op.as_str(), "blr" | "br") {
        return None;
    }
    if let Some(inner) = a.strip_prefix("qword ptr [rip + ").and_then(|r| r.strip_suffix(']')) {
        return Some(inner.trim_end_matches("@GOTPCREL").trim_end_matches("@PLT").to_string());
    }
    if a.contains('[') || is_register(a) || a.starts_with(".L") {
        return None;
    }
    Some(a.trim_end_matches("@PLT").to_string())
}

/// Is `s` a general-purpose register name?
pub fn is_register(s: &str) -> bool {
    super::regs::family(s).is_some()
}

fn label_of(cfg: &Cfg, b: usize) -> String {
    cfg.blocks[b].label.clone().unwrap_or_else(|| format!("#{b}"))
}

fn has_call(cfg: &Cfg, b: usize) -> bool {
    cfg.blocks[b].insns.iter().any(Insn::is_call)
}

/// Out-of-translation-unit sinks a C kernel calls directly where a Rust kernel makes an
/// indirect `dyn TidSink` call (`tbm_add_tuples` in tidbitmap.c, the Rust sink's callback):
/// allowed on a loop like an indirect call, and not followed. C snapshots name them without
/// the configuration suffix.
const OPAQUE_SINKS: &[&str] = &["hl_tbm_add_tuples", "hl_tid_sink_add_tuples"];

/// Blocks making a direct call to a named symbol that is not one of `helpers` (nor an
/// [`OPAQUE_SINKS`] sink).
fn calls_outside(cfg: &Cfg, b: usize, helpers: &BTreeSet<String>) -> bool {
    cfg.blocks[b].insns.iter().any(|i| i.is_call() && call_target(i).is_some_and(|t| !helpers.contains(&t) && !OPAQUE_SINKS.contains(&t.as_str())))
}

/// Is this a tail jump out of the function (`jmp`/`b`/`br` to something that is not a local
/// label)?
fn is_tail_jump(i: &Insn) -> bool {
    i.is_uncond_jump() && !i.args.trim().starts_with(".L")
}

fn block_cost(cfg: &Cfg, b: usize) -> usize {
    cfg.blocks[b].insns.len().max(1) + if has_call(cfg, b) { CALL_PENALTY } else { 0 }
}

/// Is `to` the taken target of `from`'s last jump (rather than its fall-through)?
fn is_taken_edge(cfg: &Cfg, from: usize, to: usize) -> bool {
    to != from + 1 || cfg.blocks[from].insns.last().is_some_and(Insn::is_uncond_jump)
}

/// The loops of a function a kernel can iterate per item: cycles of blocks that make no
/// direct call to a named function outside `helpers` (indirect calls, such as a flush
/// callback, may be on them; the path avoids them where it can).
pub fn candidate_loops(cfg: &Cfg, helpers: &BTreeSet<String>) -> Vec<BTreeSet<usize>> {
    let ok: Vec<bool> = (0..cfg.blocks.len()).map(|b| !calls_outside(cfg, b, helpers)).collect();
    cfg.loops_within(&ok)
}

/// The loop's header: its first block reached from the function entry (breadth first).
fn header_of(cfg: &Cfg, lp: &BTreeSet<usize>) -> usize {
    let mut seen = vec![false; cfg.blocks.len()];
    let mut q = std::collections::VecDeque::from([0usize]);
    seen[0] = true;
    while let Some(b) = q.pop_front() {
        if lp.contains(&b) {
            return b;
        }
        for &s in &cfg.blocks[b].succ {
            if !seen[s] {
                seen[s] = true;
                q.push_back(s);
            }
        }
    }
    *lp.iter().next().expect("a loop has blocks")
}

/// Cheapest path from `start` (its cost included) to a block satisfying `stop` (for a loop:
/// one with an edge back to the header), moving only within `allowed`. Costs are doubled and
/// a taken edge adds one, so fall-through wins ties.
fn cheapest(cfg: &Cfg, start: usize, allowed: &dyn Fn(usize) -> bool, stop: &dyn Fn(usize) -> bool) -> Option<Vec<usize>> {
    let n = cfg.blocks.len();
    let mut dist = vec![usize::MAX; n];
    let mut prev = vec![usize::MAX; n];
    let mut heap = BinaryHeap::new();
    dist[start] = 2 * block_cost(cfg, start);
    heap.push(Reverse((dist[start], start)));
    while let Some(Reverse((d, u))) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        if stop(u) {
            let mut path = vec![u];
            let mut at = u;
            while at != start {
                at = prev[at];
                path.push(at);
            }
            path.reverse();
            return Some(path);
        }
        for &v in &cfg.blocks[u].succ {
            if !allowed(v) || v == start {
                continue;
            }
            let nd = d + 2 * block_cost(cfg, v) + usize::from(is_taken_edge(cfg, u, v));
            if nd < dist[v] {
                dist[v] = nd;
                prev[v] = u;
                heap.push(Reverse((nd, v)));
            }
        }
    }
    None
}

/// Append `sym`'s steady path from entry to `ret` (helpers inlined) to `out`.
fn inline_helper(
    bodies: &HashMap<String, String>,
    helpers: &BTreeSet<String>,
    sym: &str,
    depth: usize,
    st: &mut Steady,
) -> Result<()> {
    if depth > MAX_INLINE_DEPTH {
        bail!("helpers nested deeper than {MAX_INLINE_DEPTH} at {sym}");
    }
    let body = bodies.get(sym).ok_or_else(|| anyhow!("helper {sym} is not in the snapshot"))?;
    let cfg = Cfg::parse(body);
    let ends = |b: usize| cfg.blocks[b].insns.last().is_some_and(|i| i.op == "ret" || is_tail_jump(i));
    let path = cheapest(&cfg, 0, &|_| true, &ends).ok_or_else(|| anyhow!("helper {sym}: no path from its entry to a ret"))?;
    st.inlined.push(sym.to_string());
    for (k, &b) in path.iter().enumerate() {
        emit_block(bodies, helpers, &cfg, b, path.get(k + 1).copied(), sym, depth, st)?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn emit_block(
    bodies: &HashMap<String, String>,
    helpers: &BTreeSet<String>,
    cfg: &Cfg,
    b: usize,
    next: Option<usize>,
    sym: &str,
    depth: usize,
    st: &mut Steady,
) -> Result<()> {
    for i in &cfg.blocks[b].insns {
        // A jump is taken on the path when the next block is its target.
        let taken = (i.is_jump() && !is_tail_jump(i))
            .then(|| i.is_uncond_jump() || next.is_some_and(|n| cfg.blocks[n].label.is_some() && cfg.blocks[n].label.as_deref() == i.jump_target()));
        st.insns.push(PathInsn { insn: i.clone(), symbol: sym.to_string(), depth, taken });
        let target = if i.is_call() || is_tail_jump(i) { call_target(i) } else { None };
        match target {
            Some(t) if helpers.contains(&t) => inline_helper(bodies, helpers, &t, depth + 1, st)?,
            _ if i.is_call() || is_tail_jump(i) => st.unfollowed_calls.push(format!("{} {}", i.op, i.args)),
            _ => {}
        }
    }
    Ok(())
}

/// Extract the steady state of the kernel `entry` from `snapshot`. `helpers` are the
/// variant's out-of-line helpers (those are inlined); `site` says where the loop lives.
pub fn extract(snapshot: &str, entry: &str, helpers: &[&str], site: Site) -> Result<Steady> {
    let syms = symbols_in(snapshot);
    if syms.is_empty() {
        bail!("no symbol in the snapshot");
    }
    let bodies: HashMap<String, String> = syms.iter().cloned().collect();
    if !bodies.contains_key(entry) {
        bail!("kernel symbol {entry} is not in the snapshot");
    }
    let helper_set: BTreeSet<String> = helpers.iter().map(|h| h.to_string()).collect();
    let (symbol, rule_site) = match site.helper_suffix {
        Some(suf) => match helpers.iter().find(|h| h.ends_with(suf) && bodies.contains_key(**h)) {
            Some(h) => (h.to_string(), format!("loop in helper {h}: {}", site.why)),
            None => (entry.to_string(), format!("no helper ending `{suf}`: the entry's largest loop")),
        },
        None => (entry.to_string(), site.why.to_string()),
    };
    let cfg = Cfg::parse(&bodies[&symbol]);
    let loops = candidate_loops(&cfg, &helper_set);
    let size = |l: &BTreeSet<usize>| l.iter().map(|&b| cfg.blocks[b].insns.len()).sum::<usize>();
    let lp = loops
        .iter()
        .max_by_key(|l| (size(l), Reverse(*l.iter().next().unwrap())))
        .ok_or_else(|| anyhow!("{symbol} has no loop without a call to a function outside the snapshot"))?
        .clone();
    let header = header_of(&cfg, &lp);
    let in_loop = |b: usize| lp.contains(&b);
    let closes = |b: usize| cfg.blocks[b].succ.contains(&header);
    // The header itself may close the loop (a one-block loop).
    let path = if closes(header) && cfg.blocks[header].succ.len() == 1 {
        vec![header]
    } else {
        cheapest(&cfg, header, &in_loop, &|b| closes(b) && (b != header || lp.len() == 1))
            .or_else(|| closes(header).then(|| vec![header]))
            .ok_or_else(|| anyhow!("{symbol}: no way round the loop at {}", label_of(&cfg, header)))?
    };
    let last = *path.last().unwrap();
    let back_edge = match cfg.blocks[last].insns.last() {
        Some(j) if j.is_jump() && j.jump_target() == Some(label_of(&cfg, header).as_str()) => format!("{} {}", j.op, j.args),
        _ => "fall-through".to_string(),
    };
    let mut st = Steady {
        symbol: symbol.clone(),
        header: label_of(&cfg, header),
        path_blocks: path.iter().map(|&b| label_of(&cfg, b)).collect(),
        back_edge,
        insns: vec![],
        inlined: vec![],
        unfollowed_calls: vec![],
        rule: format!(
            "heuristic (no profile): {rule_site}; the loop is the largest cycle without a direct call outside the snapshot, \
             the path the cheapest way round from its header (calls penalised, fall-through on ties); helpers from entry to ret"
        ),
    };
    for (k, &b) in path.iter().enumerate() {
        let next = path.get(k + 1).copied().unwrap_or(header);
        emit_block(&bodies, &helper_set, &cfg, b, Some(next), &symbol, 0, &mut st)?;
    }
    if st.insns.is_empty() {
        bail!("{symbol}: the loop at {} has no instructions", st.header);
    }
    Ok(st)
}

/// The blocks of the loop the path goes round (for tests: the path stays inside it).
pub fn loop_blocks(snapshot: &str, symbol: &str, helpers: &[&str]) -> Option<Vec<String>> {
    let body = crate::asm::symbol_body(snapshot, symbol)?;
    let cfg = Cfg::parse(body);
    let helper_set: BTreeSet<String> = helpers.iter().map(|h| h.to_string()).collect();
    let loops = candidate_loops(&cfg, &helper_set);
    let size = |l: &BTreeSet<usize>| l.iter().map(|&b| cfg.blocks[b].insns.len()).sum::<usize>();
    let lp = loops.iter().max_by_key(|l| (size(l), Reverse(*l.iter().next().unwrap())))?;
    Some(lp.iter().map(|&b| label_of(&cfg, b)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const STORE_EACH: &str = "\nf:\n\tjmp .L1\n.L0:\n\tmov edx, dword ptr [rsi + 2*rax]\n\tmov dword ptr [rbx + 2*rcx], edx\n\tinc dword ptr [r13 + 132]\n.L1:\n\tmov eax, dword ptr [r13 + 132]\n\tcmp eax, dword ptr [r13 + 128]\n\tjle .L2\n\tcall r14\n\ttest al, al\n\tjne .L1\n\tjmp .L3\n.L2:\n\tcmp rbp, 1358\n\tjne .L0\n\tcall qword ptr [rsp + 8]\n\tjmp .L0\n.L3:\n\tret\n";

    #[test]
    fn copy_loop_path_avoids_the_flush_and_the_page_step() {
        let s = extract(STORE_EACH, "f", &[], site_of("x")).unwrap();
        assert_eq!(s.header, ".L1");
        assert_eq!(s.path_blocks, vec![".L1", ".L2", ".L0"]);
        assert_eq!(s.back_edge, "fall-through");
        assert!(s.unfollowed_calls.is_empty(), "{:?}", s.unfollowed_calls);
        assert_eq!(s.insns.len(), 8);
    }

    #[test]
    fn helper_is_inlined_from_entry_to_ret() {
        let snap = "\nk:\n.L0:\n\tmov rdi, rbx\n\tcall qword ptr [rip + hl_a@GOTPCREL]\n\tinc rbx\n\tcmp rbx, 10\n\tjne .L0\n\tret\n\nhl_a:\n\tpush rbx\n\tmov eax, dword ptr [rdi + 4]\n\tcmp eax, 1\n\tje .L0\n\tcall qword ptr [rip + core::panicking::panic@GOTPCREL]\n.L0:\n\tpop rbx\n\tret\n";
        let s = extract(snap, "k", &["hl_a"], site_of("x")).unwrap();
        assert_eq!(s.inlined, vec!["hl_a"]);
        let ops: Vec<&str> = s.insns.iter().map(|i| i.insn.op.as_str()).collect();
        assert_eq!(ops, vec!["mov", "call", "push", "mov", "cmp", "je", "pop", "ret", "inc", "cmp", "jne"]);
        assert_eq!(s.back_edge, "jne .L0");
    }

    const A64_STORE_EACH: &str = "\nf:\n\tldr w3, [x19, 132]\n.L0:\n\tldr w2, [x19, 128]\n\tmov x0, x19\n\tcmp w3, w2\n\tble .L1\n.L2:\n\tbl hl_bt_steppage\n\ttst w0, 255\n\tbeq .L3\n\tldr w3, [x19, 132]\n\tcmp w3, w2\n\tbgt .L2\n.L1:\n\tcmp w25, 1358\n\tbeq .L4\n\tadd w25, w25, 1\n.L5:\n\tldr w1, [x3, 136]\n\tstr w1, [x0]\n\tldr w3, [x19, 132]\n\tadd w3, w3, 1\n\tstr w3, [x19, 132]\n\tb .L0\n.L4:\n\tbl hl_tid_sink_add_tuples\n\tb .L5\n.L3:\n\tret\n";

    #[test]
    fn aarch64_copy_loop_path_avoids_the_flush_and_the_page_step() {
        let s = extract(A64_STORE_EACH, "f", &[], site_of("x")).unwrap();
        assert_eq!(s.header, ".L0");
        assert_eq!(s.path_blocks, vec![".L0", ".L1", "#7", ".L5"]);
        assert_eq!(s.back_edge, "b .L0");
        assert!(s.unfollowed_calls.is_empty(), "{:?}", s.unfollowed_calls);
        let ops: Vec<&str> = s.insns.iter().map(|i| i.insn.op.as_str()).collect();
        assert_eq!(ops, vec!["ldr", "mov", "cmp", "ble", "cmp", "beq", "add", "ldr", "str", "ldr", "add", "str", "b"]);
        // The path takes ble (to .L1) and the closing b, not beq (the flush).
        let taken: Vec<Option<bool>> = s.insns.iter().filter(|i| i.taken.is_some()).map(|i| i.taken).collect();
        assert_eq!(taken, vec![Some(true), Some(false), Some(true)]);
    }

    #[test]
    fn call_targets() {
        let i = |op: &str, a: &str| Insn { op: op.into(), args: a.into() };
        assert_eq!(call_target(&i("call", "qword ptr [rip + hl_x@GOTPCREL]")).as_deref(), Some("hl_x"));
        assert_eq!(call_target(&i("call", "hl_y")).as_deref(), Some("hl_y"));
        assert_eq!(call_target(&i("call", "r14")), None);
        assert_eq!(call_target(&i("call", "qword ptr [rsp + 8]")), None);
        assert_eq!(call_target(&i("bl", "hl_bt_check_compare")).as_deref(), Some("hl_bt_check_compare"));
        assert_eq!(call_target(&i("blr", "x8")), None);
        assert_eq!(call_target(&i("b", ".L3")), None);
    }
}
