//! Structure read from normalised asm: basic blocks, the loops that contain no call (the hot
//! loops of a kernel: a flush or page step is a call, so it sits outside them), and the memory
//! operands inside them. The structural tests assert a variant's mechanism with these.

use std::collections::{BTreeSet, HashMap};

/// One instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insn {
    /// Mnemonic (`mov`, `inc`, `jne`).
    pub op: String,
    /// Operand text after the mnemonic.
    pub args: String,
}

impl Insn {
    fn operands(&self) -> Vec<&str> {
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
        (matches!(self.op.as_str(), "mov" | "movsxd" | "movzx") && ops.len() == 2 && !ops[0].contains('[') && ops[1].contains('['))
            .then(|| ops[0])
    }

    /// The register this instruction overwrites, if its destination is a register.
    pub fn reg_dest(&self) -> Option<&str> {
        let ops = self.operands();
        let skip = matches!(self.op.as_str(), "cmp" | "test" | "push" | "call" | "ret") || self.op.starts_with('j');
        (!skip && !ops.is_empty() && !ops[0].contains('[')).then(|| ops[0])
    }

    /// Is this a call?
    pub fn is_call(&self) -> bool {
        self.op == "call"
    }
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
            let ends = insn.op.starts_with('j') || insn.op == "ret" || insn.op == "ud2";
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
                Some(j) if j.op == "jmp" => {
                    if let Some(&t) = index.get(j.args.trim()) {
                        succ.push(t);
                    }
                }
                Some(j) if j.op.starts_with('j') => {
                    if let Some(&t) = index.get(j.args.trim()) {
                        succ.push(t);
                    }
                    if i + 1 < n {
                        succ.push(i + 1);
                    }
                }
                Some(j) if j.op == "ret" || j.op == "ud2" => {}
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
    for b in &cfg.blocks {
        for i in &b.insns {
            if let Some(base) = i.reads_disp(second) {
                if loaded.contains(&base) {
                    return true;
                }
            }
            if let Some(d) = i.reg_dest() {
                loaded.remove(d);
                if i.load_dest().is_some() && i.reads_disp(first).is_some() {
                    loaded.insert(d.to_string());
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

    #[test]
    fn dependent_load_chain() {
        let opaque = "f:\n\tmov rax, qword ptr [rdi + 56]\n\tmov eax, dword ptr [rax + 112]\n\tret\n";
        let by_value = "f:\n\tmov eax, dword ptr [rsi]\n\tmov rcx, qword ptr [rdi + 56]\n\tmov rcx, rdx\n\tmov ecx, dword ptr [rcx + 112]\n\tret\n";
        assert!(has_dependent_load(opaque, 56, 112));
        assert!(!has_dependent_load(by_value, 56, 112));
    }
}
