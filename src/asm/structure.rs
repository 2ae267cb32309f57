//! Structure read from normalised asm: basic blocks, the loops that contain no call (the hot
//! loops of a kernel: a flush or page step is a call, so it sits outside them), and the memory
//! operands inside them. The structural tests assert a variant's mechanism with these.
//!
//! Two instruction sets: x86-64 in LLVM's Intel syntax (destination first, `[base + disp]`) and
//! AArch64 in GNU syntax as gcc writes it (`ldr w3, [x19, 132]`, `str w3, [x19, 132]`,
//! `stp x29, x30, [sp, -80]!`, `ldp x29, x30, [sp], 80`; branches `b`, `b.le`/`ble`, `cbz`,
//! `tbnz`; calls `bl`/`blr`). Each instruction is read by its own syntax: AArch64 mnemonics and
//! registers (`x0`..`x30`, `w0`..`w30`, `sp`, `xzr`) are not x86 ones, so a body needs no flag.

use std::collections::{BTreeSet, HashMap};

/// The instruction set of a snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Isa {
    /// x86-64 (every linked kernel).
    X86_64,
    /// AArch64 (the cross configuration's kernels).
    Aarch64,
}

impl Isa {
    /// The ISA of a snapshot, from its header ([`super::c::AARCH64_HEADER`]).
    pub fn of_snapshot(text: &str) -> Isa {
        if super::c::is_aarch64_snapshot(text) { Isa::Aarch64 } else { Isa::X86_64 }
    }

    /// The ISA of a sequence of instructions: AArch64 if any is an AArch64 branch, call, load,
    /// store or names an AArch64 register.
    pub fn of_insns<'a>(insns: impl IntoIterator<Item = &'a Insn>) -> Isa {
        if insns.into_iter().any(Insn::is_aarch64) { Isa::Aarch64 } else { Isa::X86_64 }
    }
}

/// AArch64 condition codes (`b.le`, and gcc's `ble` spelling).
const A64_CONDS: [&str; 18] = ["eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"];

/// Is `t` an AArch64 general-purpose register name (`x0`..`x30`, `w0`..`w30`, `sp`, `wsp`,
/// `xzr`, `wzr`, `lr`, `fp`)?
pub fn is_a64_gpr(t: &str) -> bool {
    let t = t.trim();
    if matches!(t, "sp" | "wsp" | "xzr" | "wzr" | "lr" | "fp") {
        return true;
    }
    let Some(n) = t.strip_prefix('x').or_else(|| t.strip_prefix('w')) else { return false };
    !n.is_empty() && n.len() <= 2 && n.chars().all(|c| c.is_ascii_digit()) && n.parse::<u8>().is_ok_and(|n| n <= 30)
}

/// The 64-bit name of an AArch64 register (`w3` -> `x3`, `wsp` -> `sp`, `lr` -> `x30`); other
/// names unchanged.
pub fn a64_family(t: &str) -> String {
    let t = t.trim();
    match t {
        "wsp" => "sp".into(),
        "wzr" => "xzr".into(),
        "lr" => "x30".into(),
        "fp" => "x29".into(),
        _ if is_a64_gpr(t) && t.starts_with('w') => format!("x{}", &t[1..]),
        _ => t.into(),
    }
}

/// Bytes an AArch64 load or store of register `r` moves with mnemonic `op` (`ldrh` 2, `ldrsw`
/// 4, `ldr w` 4, `ldr x` 8, `ldr q` 16).
fn a64_size(op: &str, r: &str) -> i64 {
    let base = op.trim_start_matches("ld").trim_start_matches("st");
    let base = base.trim_start_matches(['a', 'l', 'x', 'n']);
    if base.ends_with("rb") || base.ends_with("urb") || base == "rsb" || base.ends_with("ursb") {
        return 1;
    }
    if base.ends_with("rh") || base.ends_with("urh") || base == "rsh" || base.ends_with("ursh") {
        return 2;
    }
    if base == "rsw" || base == "ursw" || base == "psw" {
        return 4;
    }
    match r.trim().chars().next() {
        Some('w' | 's') => 4,
        Some('x' | 'd') => 8,
        Some('q') => 16,
        Some('h') => 2,
        Some('b') => 1,
        _ => 8,
    }
}

/// One memory access of an AArch64 load or store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct A64Access {
    /// Base register, 64-bit name.
    pub base: String,
    /// Displacement from the base before the access (pre-index: the new base).
    pub disp: i64,
    /// Bytes.
    pub size: i64,
    /// Reads memory.
    pub load: bool,
    /// Writes memory.
    pub store: bool,
    /// The register loaded or stored.
    pub reg: String,
}

/// An AArch64 memory operand's base and writeback: (base, displacement, the immediate the
/// base moves by, pre-index). `[x19, 132]` -> (x19, 132, 0), `[sp, -80]!` -> (sp, -80, -80,
/// pre), `[sp]` followed by `, 80` (post-index) -> (sp, 0, 80). None for register offsets and
/// symbol offsets (`[x9, x8]`, `[x0, :lo12:sym]`).
pub fn a64_mem(ops: &[&str]) -> Option<(String, i64, i64, bool)> {
    let (k, o) = ops.iter().enumerate().find(|(_, o)| o.contains('['))?;
    let open = o.find('[')?;
    let close = o.rfind(']')?;
    let inner: Vec<&str> = o[open + 1..close].split(',').map(str::trim).collect();
    let base = inner.first().filter(|b| is_a64_gpr(b))?;
    let disp = match inner.get(1) {
        None => 0,
        Some(d) => d.trim_start_matches('#').parse::<i64>().ok()?,
    };
    if inner.len() > 2 {
        return None;
    }
    let pre = o[close..].starts_with("]!");
    let post = ops.get(k + 1).and_then(|i| i.trim().trim_start_matches('#').parse::<i64>().ok());
    let moves = if pre { disp } else { post.unwrap_or(0) };
    Some((a64_family(base), disp, moves, pre))
}

/// The memory accesses of an AArch64 load or store (a pair is two), or none.
pub fn a64_accesses(i: &Insn) -> Vec<A64Access> {
    let op = i.op.as_str();
    let (load, store) = if op.starts_with("ld") {
        (true, false)
    } else if op.starts_with("st") {
        (false, true)
    } else {
        return vec![];
    };
    let ops = i.operands();
    let Some((base, disp, _, _)) = a64_mem(&ops) else { return vec![] };
    let regs: Vec<&str> = ops.iter().copied().take_while(|o| !o.contains('[')).collect();
    // Store-exclusive's first register is the status, not data.
    let data = if op.starts_with("stx") || op.starts_with("stlx") { &regs[regs.len().min(1)..] } else { &regs[..] };
    let pair = op.ends_with('p') && data.len() >= 2;
    let n = if pair { 2 } else { 1 };
    let size = data.first().map_or(8, |r| a64_size(op, r));
    (0..n).map(|j| A64Access { base: base.clone(), disp: disp + j as i64 * size, size, load, store, reg: data.get(j).unwrap_or(&"").to_string() }).collect()
}

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insn {
    /// Mnemonic (`mov`, `inc`, `jne`).
    pub op: String,
    /// Operand text after the mnemonic.
    pub args: String,
}

impl Insn {
    /// Is this an AArch64 instruction (by its mnemonic or registers)?
    pub fn is_aarch64(&self) -> bool {
        let op = self.op.as_str();
        is_a64_branch(op)
            || matches!(op, "bl" | "blr" | "adrp" | "ldr" | "str" | "ldp" | "stp" | "ldrh" | "strh" | "ldrb" | "strb" | "ldur" | "stur" | "ldrsw" | "brk")
            || self.operands().iter().any(|o| is_a64_gpr(o.trim_start_matches('[').split(',').next().unwrap_or("")))
    }

    /// Is this a branch (a jump, conditional or not; not a call or return)?
    pub fn is_jump(&self) -> bool {
        self.op.starts_with('j') || is_a64_branch(&self.op)
    }

    /// Is this an unconditional jump (`jmp`, `b`, `br`)?
    pub fn is_uncond_jump(&self) -> bool {
        matches!(self.op.as_str(), "jmp" | "b" | "br")
    }

    /// The label or symbol a direct jump goes to (the last operand of `cbz w0, .L3` and
    /// `tbnz x0, 0, .L3`); None for an indirect jump or a non-jump.
    pub fn jump_target(&self) -> Option<&str> {
        if !self.is_jump() || self.op == "br" {
            return None;
        }
        let t = if matches!(self.op.as_str(), "cbz" | "cbnz" | "tbz" | "tbnz") { self.args.rsplit(',').next()? } else { &self.args };
        Some(t.trim())
    }

    /// Does this instruction end a basic block (a jump, a return, a trap)?
    pub fn ends_block(&self) -> bool {
        self.is_jump() || matches!(self.op.as_str(), "ret" | "ud2" | "brk")
    }

    /// The operands, split on commas outside brackets.
    pub fn operands(&self) -> Vec<&str> {
        // Split on commas outside brackets.
        let mut v = vec![];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in self.args.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                ',' if depth == 0 => {
                    v.push(self.args[start..i].trim());
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !self.args.trim().is_empty() {
            v.push(self.args[start..].trim());
        }
        v
    }

    /// Does this instruction read memory at `[base + disp]` for some base register?
    /// Returns the base register. Intel syntax: the destination is the first operand.
    pub fn reads_disp(&self, disp: i64) -> Option<String> {
        if self.is_aarch64() {
            return a64_accesses(self).into_iter().find(|a| a.load && a.disp == disp).map(|a| a.base);
        }
        let ops = self.operands();
        for (i, o) in ops.iter().enumerate() {
            if let Some(base) = mem_base_with_disp(o, disp) {
                // A plain store (`mov [m], r`) does not read; an RMW (`inc [m]`, `add [m], r`)
                // and any source operand does.
                let is_store_only = i == 0 && ops.len() == 2 && self.op == "mov";
                if !is_store_only && self.op != "lea" {
                    return Some(base);
                }
            }
        }
        None
    }

    /// Does this instruction write memory at `[base + disp]`? Returns the base register.
    pub fn writes_disp(&self, disp: i64) -> Option<String> {
        if self.is_aarch64() {
            return a64_accesses(self).into_iter().find(|a| a.store && a.disp == disp).map(|a| a.base);
        }
        let ops = self.operands();
        let dst = ops.first()?;
        let base = mem_base_with_disp(dst, disp)?;
        let writes = matches!(
            self.op.as_str(),
            "mov" | "inc" | "dec" | "add" | "sub" | "and" | "or" | "xor" | "neg" | "not" | "movsxd" | "movzx"
        ) && !(self.op == "cmp" || self.op == "test");
        (writes && self.op != "movsxd" && self.op != "movzx").then_some(base)
    }

    /// Destination register of a load (`mov r, [..]`), if this is one.
    pub fn load_dest(&self) -> Option<&str> {
        let ops = self.operands();
        if self.is_aarch64() {
            let single = self.op.starts_with("ldr") || self.op.starts_with("ldur");
            return (single && ops.len() >= 2 && is_a64_gpr(ops[0]) && ops[1].contains('[')).then(|| ops[0]);
        }
        (matches!(self.op.as_str(), "mov" | "movsxd" | "movzx") && ops.len() == 2 && !ops[0].contains('[') && ops[1].contains('['))
            .then(|| ops[0])
    }

    /// The register this instruction overwrites, if its destination is a register.
    pub fn reg_dest(&self) -> Option<&str> {
        let ops = self.operands();
        if self.is_aarch64() {
            let op = self.op.as_str();
            let no_dest = op.starts_with("st")
                || self.is_jump()
                || matches!(op, "cmp" | "cmn" | "tst" | "ccmp" | "ccmn" | "fcmp" | "bl" | "blr" | "ret" | "prfm" | "nop" | "brk");
            return (!no_dest && !ops.is_empty() && !ops[0].contains('[')).then(|| ops[0]);
        }
        let skip = matches!(self.op.as_str(), "cmp" | "test" | "push" | "call" | "ret") || self.op.starts_with('j');
        (!skip && !ops.is_empty() && !ops[0].contains('[')).then(|| ops[0])
    }

    /// Is this a call (`call`, `bl`, `blr`)?
    pub fn is_call(&self) -> bool {
        matches!(self.op.as_str(), "call" | "bl" | "blr")
    }
}

/// Is `op` an AArch64 branch mnemonic: `b`, `br`, `b.<cond>`, gcc's `b<cond>`, `cbz`, `cbnz`,
/// `tbz`, `tbnz`? (None is an x86 mnemonic.)
pub fn is_a64_branch(op: &str) -> bool {
    if matches!(op, "b" | "br" | "cbz" | "cbnz" | "tbz" | "tbnz") {
        return true;
    }
    op.strip_prefix("b.").or_else(|| op.strip_prefix('b')).is_some_and(|c| A64_CONDS.contains(&c))
}

/// `dword ptr [r13 + 132]` -> Some("r13") when disp matches (no index register).
fn mem_base_with_disp(operand: &str, disp: i64) -> Option<String> {
    let open = operand.find('[')?;
    let inner = &operand[open + 1..operand.rfind(']')?];
    let parts: Vec<&str> = inner.split('+').map(str::trim).collect();
    match parts.as_slice() {
        [base] if disp == 0 && !base.contains('*') => Some(base.to_string()),
        [base, d] if !base.contains('*') && d.parse::<i64>().ok() == Some(disp) => Some(base.to_string()),
        _ => None,
    }
}

/// A basic block: its label (if any), instructions and successors.
#[derive(Clone, Debug)]
pub struct Block {
    /// Label naming the block.
    pub label: Option<String>,
    /// Instructions.
    pub insns: Vec<Insn>,
    /// Successor block indices.
    pub succ: Vec<usize>,
}

/// The control-flow graph of one function.
#[derive(Clone, Debug)]
pub struct Cfg {
    /// Blocks in text order.
    pub blocks: Vec<Block>,
}

impl Cfg {
    /// Parse a normalised function body (`name:` line, then instructions and labels).
    pub fn parse(body: &str) -> Cfg {
        let mut blocks: Vec<Block> = vec![Block { label: None, insns: vec![], succ: vec![] }];
        for line in body.lines().skip(1) {
            let t = line.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(l) = t.strip_suffix(':') {
                blocks.push(Block { label: Some(l.to_string()), insns: vec![], succ: vec![] });
                continue;
            }
            let (op, args) = t.split_once(char::is_whitespace).unwrap_or((t, ""));
            let insn = Insn { op: op.to_string(), args: args.trim().to_string() };
            let ends = insn.ends_block();
            blocks.last_mut().unwrap().insns.push(insn);
            if ends {
                blocks.push(Block { label: None, insns: vec![], succ: vec![] });
            }
        }
        let index: HashMap<String, usize> =
            blocks.iter().enumerate().filter_map(|(i, b)| b.label.clone().map(|l| (l, i))).collect();
        let n = blocks.len();
        for i in 0..n {
            let last = blocks[i].insns.last().cloned();
            let mut succ = vec![];
            match last {
                Some(j) if j.is_uncond_jump() => {
                    if let Some(&t) = j.jump_target().and_then(|l| index.get(l)) {
                        succ.push(t);
                    }
                }
                Some(j) if j.is_jump() => {
                    if let Some(&t) = j.jump_target().and_then(|l| index.get(l)) {
                        succ.push(t);
                    }
                    if i + 1 < n {
                        succ.push(i + 1);
                    }
                }
                Some(j) if matches!(j.op.as_str(), "ret" | "ud2" | "brk") => {}
                // A call to a panic function does not return, but we cannot tell which calls
                // do not; calls never end blocks here, and call-free loops ignore such blocks.
                _ => {
                    if i + 1 < n {
                        succ.push(i + 1);
                    }
                }
            }
            blocks[i].succ = succ;
        }
        Cfg { blocks }
    }

    /// Strongly connected components (with a cycle) of the subgraph of call-free blocks: the
    /// loops a kernel iterates without leaving for a flush, page step or panic.
    pub fn call_free_loops(&self) -> Vec<BTreeSet<usize>> {
        let ok: Vec<bool> = self.blocks.iter().map(|b| !b.insns.iter().any(Insn::is_call)).collect();
        self.loops_within(&ok)
    }

    /// Strongly connected components with a cycle of the subgraph of the blocks `ok` admits
    /// (Tarjan): the loops that stay within them.
    pub fn loops_within(&self, ok: &[bool]) -> Vec<BTreeSet<usize>> {
        let n = self.blocks.len();
        // Tarjan's algorithm, iterative enough for small graphs via recursion.
        struct St<'a> {
            cfg: &'a Cfg,
            ok: &'a [bool],
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on: Vec<bool>,
            stack: Vec<usize>,
            next: usize,
            out: Vec<BTreeSet<usize>>,
        }
        fn visit(s: &mut St, v: usize) {
            s.index[v] = Some(s.next);
            s.low[v] = s.next;
            s.next += 1;
            s.stack.push(v);
            s.on[v] = true;
            for &w in &s.cfg.blocks[v].succ {
                if !s.ok[w] {
                    continue;
                }
                if s.index[w].is_none() {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                } else if s.on[w] {
                    s.low[v] = s.low[v].min(s.index[w].unwrap());
                }
            }
            if Some(s.low[v]) == s.index[v] {
                let mut comp = BTreeSet::new();
                loop {
                    let w = s.stack.pop().unwrap();
                    s.on[w] = false;
                    comp.insert(w);
                    if w == v {
                        break;
                    }
                }
                let cyclic = comp.len() > 1 || s.cfg.blocks[v].succ.contains(&v);
                if cyclic {
                    s.out.push(comp);
                }
            }
        }
        let mut s = St { cfg: self, ok, index: vec![None; n], low: vec![0; n], on: vec![false; n], stack: vec![], next: 0, out: vec![] };
        for v in 0..n {
            if ok[v] && s.index[v].is_none() {
                visit(&mut s, v);
            }
        }
        s.out
    }

    /// Instructions of a set of blocks.
    pub fn insns<'a>(&'a self, blocks: &'a BTreeSet<usize>) -> impl Iterator<Item = &'a Insn> + 'a {
        blocks.iter().flat_map(move |&b| self.blocks[b].insns.iter())
    }
}

/// What a loop does with one memory slot `[base + disp]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlotUse {
    /// Loads of the slot (including the read half of read-modify-writes).
    pub loads: usize,
    /// Stores to the slot.
    pub stores: usize,
}

/// Uses of `[reg + disp]` within each call-free loop of `body`, one entry per loop.
pub fn slot_use_in_loops(body: &str, disp: i64) -> Vec<SlotUse> {
    let cfg = Cfg::parse(body);
    cfg.call_free_loops()
        .iter()
        .map(|l| {
            let mut u = SlotUse::default();
            for i in cfg.insns(l) {
                if i.reads_disp(disp).is_some() {
                    u.loads += 1;
                }
                if i.writes_disp(disp).is_some() {
                    u.stores += 1;
                }
            }
            u
        })
        .collect()
}

/// Is there a dependent load chain `r = [x + first]; ... [r + second]` in straight-line order?
pub fn has_dependent_load(body: &str, first: i64, second: i64) -> bool {
    let cfg = Cfg::parse(body);
    let mut loaded: BTreeSet<String> = BTreeSet::new();
    // AArch64's `w` and `x` names are one register; x86 names are compared as written.
    let reg = |i: &Insn, r: &str| if i.is_aarch64() { a64_family(r) } else { r.to_string() };
    for b in &cfg.blocks {
        for i in &b.insns {
            if let Some(base) = i.reads_disp(second) {
                if loaded.contains(&reg(i, &base)) {
                    return true;
                }
            }
            if let Some(d) = i.reg_dest() {
                loaded.remove(&reg(i, d));
                if i.load_dest().is_some() && i.reads_disp(first).is_some() {
                    loaded.insert(reg(i, d));
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    const STORE_EACH: &str = "f:\n\tjmp .L1\n.L0:\n\tmov edx, dword ptr [rsi + 2*rax]\n\tmov dword ptr [rbx + 2*rcx], edx\n\tinc dword ptr [r13 + 132]\n.L1:\n\tmov eax, dword ptr [r13 + 132]\n\tcmp eax, dword ptr [r13 + 128]\n\tjle .L2\n\tcall r14\n\ttest al, al\n\tjne .L1\n\tjmp .L3\n.L2:\n\tcmp rbp, 1358\n\tjne .L0\n\tcall qword ptr [rsp + 8]\n\tjmp .L0\n.L3:\n\tret\n";

    #[test]
    fn finds_the_call_free_copy_loop() {
        let cfg = Cfg::parse(STORE_EACH);
        let loops = cfg.call_free_loops();
        assert_eq!(loops.len(), 1, "{loops:?}");
        let u = slot_use_in_loops(STORE_EACH, 132);
        assert_eq!(u, vec![SlotUse { loads: 2, stores: 1 }]);
        assert_eq!(slot_use_in_loops(STORE_EACH, 128), vec![SlotUse { loads: 1, stores: 0 }]);
    }

    const A64_STORE_EACH: &str = "f:\n\tldr w3, [x19, 132]\n.L0:\n\tldr w2, [x19, 128]\n\tcmp w3, w2\n\tble .L1\n.L2:\n\tbl hl_bt_steppage\n\ttst w0, 255\n\tbeq .L3\n\tldr w3, [x19, 132]\n\tcmp w3, w2\n\tbgt .L2\n.L1:\n\tcmp w25, 1358\n\tbeq .L4\n\tadd w25, w25, 1\n.L5:\n\tldr w1, [x3, 136]\n\tstr w1, [x0]\n\tldr w3, [x19, 132]\n\tadd w3, w3, 1\n\tstr w3, [x19, 132]\n\tb .L0\n.L4:\n\tbl hl_tid_sink_add_tuples\n\tb .L5\n.L3:\n\tret\n";

    #[test]
    fn aarch64_branches_calls_and_slots() {
        let cfg = Cfg::parse(A64_STORE_EACH);
        let loops = cfg.call_free_loops();
        assert_eq!(loops.len(), 1, "{loops:?}");
        assert_eq!(slot_use_in_loops(A64_STORE_EACH, 132), vec![SlotUse { loads: 1, stores: 1 }]);
        assert_eq!(slot_use_in_loops(A64_STORE_EACH, 128), vec![SlotUse { loads: 1, stores: 0 }]);
        let i = |op: &str, a: &str| Insn { op: op.into(), args: a.into() };
        assert_eq!(i("cbz", "w0, .L3").jump_target(), Some(".L3"));
        assert_eq!(i("tbnz", "x0, 0, .L7").jump_target(), Some(".L7"));
        assert_eq!(i("b.le", ".L2").jump_target(), Some(".L2"));
        assert!(i("ble", ".L2").is_jump() && !i("bt", "eax, 3").is_jump() && !i("bswap", "eax").is_jump());
        assert!(i("bl", "hl_x").is_call() && !i("bl", "hl_x").is_jump());
        // A pair store covers two slots; pre-index writes back its base.
        let a = a64_accesses(&i("stp", "wzr, w19, [x24, 124]"));
        assert_eq!(a.iter().map(|a| (a.disp, a.size)).collect::<Vec<_>>(), vec![(124, 4), (128, 4)]);
        assert_eq!(a64_mem(&["x29", "x30", "[sp, -80]!"]), Some(("sp".into(), -80, -80, true)));
        assert_eq!(a64_mem(&["x29", "x30", "[sp]", "80"]), Some(("sp".into(), 0, 80, false)));
        assert_eq!(a64_mem(&["w3", "[x9, x8]"]), None);
        assert_eq!(a64_accesses(&i("ldrh", "w1, [x3, 140]"))[0].size, 2);
        assert_eq!(a64_accesses(&i("ldrsw", "x9, [x0, 8]"))[0].size, 4);
    }

    #[test]
    fn aarch64_dependent_load_chain() {
        let opaque = "f:\n\tldr x6, [x0, 56]\n\tldr w1, [x1, 28]\n\tldr w1, [x6, 112]\n\tbl hl_bt_check_compare\n\tret\n";
        let by_value = "f:\n\tldr w1, [x1]\n\tldr x6, [x0, 56]\n\tmov x6, x2\n\tldr w5, [x6, 112]\n\tret\n";
        assert!(has_dependent_load(opaque, 56, 112));
        assert!(!has_dependent_load(by_value, 56, 112));
        // A 32-bit load of the pointer's register kills the chain; w and x are one register.
        assert!(!has_dependent_load("f:\n\tldr x6, [x0, 56]\n\tldr w6, [x2]\n\tldr w1, [x6, 112]\n", 56, 112));
    }

    #[test]
    fn dependent_load_chain() {
        let opaque = "f:\n\tmov rax, qword ptr [rdi + 56]\n\tmov eax, dword ptr [rax + 112]\n\tret\n";
        let by_value = "f:\n\tmov eax, dword ptr [rsi]\n\tmov rcx, qword ptr [rdi + 56]\n\tmov rcx, rdx\n\tmov ecx, dword ptr [rcx + 112]\n\tret\n";
        assert!(has_dependent_load(opaque, 56, 112));
        assert!(!has_dependent_load(by_value, 56, 112));
    }
}
