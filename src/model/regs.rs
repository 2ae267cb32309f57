//! x86-64 register names and operand pieces of the normalised (Intel-syntax) asm: what the
//! recurrence detector and the rewrites need to know about an instruction beyond its text.
//! AArch64 (GNU syntax, gcc's) has its own [`a64_effects`].

use crate::asm::structure::{Insn, a64_mem};

/// The 64-bit register a name belongs to (`r14d` -> `r14`, `al` -> `rax`); vector registers
/// map to their `xmm` name.
pub fn family(r: &str) -> Option<&'static str> {
    const GPR: [(&str, [&str; 5]); 8] = [
        ("rax", ["rax", "eax", "ax", "al", "ah"]),
        ("rbx", ["rbx", "ebx", "bx", "bl", "bh"]),
        ("rcx", ["rcx", "ecx", "cx", "cl", "ch"]),
        ("rdx", ["rdx", "edx", "dx", "dl", "dh"]),
        ("rsi", ["rsi", "esi", "si", "sil", "sil"]),
        ("rdi", ["rdi", "edi", "di", "dil", "dil"]),
        ("rbp", ["rbp", "ebp", "bp", "bpl", "bpl"]),
        ("rsp", ["rsp", "esp", "sp", "spl", "spl"]),
    ];
    const HIGH: [&str; 8] = ["r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];
    const XMM: [&str; 16] =
        ["xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"];
    let r = r.trim();
    for (f, names) in GPR {
        if names.contains(&r) {
            return Some(f);
        }
    }
    for f in HIGH {
        if let Some(rest) = r.strip_prefix(f)
            && matches!(rest, "" | "d" | "w" | "b")
        {
            return Some(f);
        }
    }
    for (i, x) in XMM.iter().enumerate() {
        for p in ["xmm", "ymm", "zmm"] {
            if r == format!("{p}{i}") {
                return Some(x);
            }
        }
    }
    None
}

/// The sixteen general-purpose registers, 64-bit names.
pub const GPRS: [&str; 16] = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"];

/// Operands split on commas outside brackets.
pub fn operands(args: &str) -> Vec<String> {
    let mut v = vec![];
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in args.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                v.push(args[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !args.trim().is_empty() {
        v.push(args[start..].trim().to_string());
    }
    v
}

/// Register families named in a piece of operand text.
pub fn regs_in(text: &str) -> Vec<&'static str> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter_map(family).collect()
}

/// A memory operand `[base + disp]` (no index, no symbol): base family and displacement.
pub fn simple_mem(operand: &str) -> Option<(&'static str, i64)> {
    let open = operand.find('[')?;
    let inner = operand[open + 1..operand.rfind(']')?].trim();
    let (base, disp) = match inner.split_once(['+', '-']) {
        None => (inner, 0),
        Some((b, d)) => {
            let neg = inner[b.len()..].trim_start().starts_with('-');
            let d: i64 = d.trim().parse().ok()?;
            (b.trim(), if neg { -d } else { d })
        }
    };
    let f = family(base)?;
    (f != "rip" && !base.contains('*')).then_some((f, disp))
}

/// Access size of a memory operand from its `ptr` prefix, in bytes (16 when unsaid).
pub fn mem_size(operand: &str) -> i64 {
    let o = operand.trim_start();
    for (p, n) in [("byte", 1), ("word", 2), ("dword", 4), ("qword", 8), ("xmmword", 16), ("ymmword", 32), ("zmmword", 64)] {
        if o.starts_with(&format!("{p} ptr")) {
            return n;
        }
    }
    16
}

/// Mnemonics whose destination register operand is also read.
fn reads_dest(op: &str) -> bool {
    matches!(
        op,
        "add" | "sub" | "adc" | "sbb" | "and" | "or" | "xor" | "inc" | "dec" | "neg" | "not" | "shl" | "shr" | "sar" | "sal" | "rol" | "ror"
            | "imul" | "xchg" | "bts" | "btr" | "cdqe" | "cqo" | "cdq" | "pinsrq" | "pinsrd" | "pxor" | "por" | "pand"
    ) || op.starts_with("cmov")
}

/// What one instruction reads and writes, as the detector needs it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// Register families read (sources, address registers, read-modify-write destinations).
    pub reads: Vec<&'static str>,
    /// Register families written.
    pub writes: Vec<&'static str>,
    /// Memory operands read (operand text).
    pub loads: Vec<String>,
    /// Memory operands written (operand text).
    pub stores: Vec<String>,
}

/// The effects of `i` (Intel syntax: destination first).
pub fn effects(i: &Insn) -> Effects {
    let op = i.op.as_str();
    let ops = operands(&i.args);
    let mut e = Effects::default();
    let no_mem_access = op == "lea" || op == "nop" || op.starts_with("prefetch");
    let compare = matches!(op, "cmp" | "test" | "bt") || op.starts_with('j') || op == "call";
    // Zeroing idioms read nothing.
    let zero_idiom = matches!(op, "xor" | "sub" | "pxor" | "xorps") && ops.len() == 2 && family(&ops[0]).is_some() && family(&ops[0]) == family(&ops[1]);
    for (k, o) in ops.iter().enumerate() {
        let is_mem = o.contains('[');
        if is_mem {
            let inner = &o[o.find('[').unwrap()..];
            e.reads.extend(regs_in(inner));
            if no_mem_access {
                continue;
            }
            if k == 0 && !compare {
                e.stores.push(o.clone());
                if reads_dest(op) {
                    e.loads.push(o.clone());
                }
            } else {
                e.loads.push(o.clone());
            }
        } else if let Some(f) = family(o) {
            if k == 0 && !compare && op != "push" {
                e.writes.push(f);
                if reads_dest(op) && !zero_idiom {
                    e.reads.push(f);
                }
            } else if !zero_idiom {
                e.reads.push(f);
            }
        }
    }
    match op {
        "cdqe" => {
            e.reads.push("rax");
            e.writes.push("rax");
        }
        "cqo" | "cdq" => {
            e.reads.push("rax");
            e.writes.push("rdx");
        }
        "mul" | "div" | "idiv" if ops.len() == 1 => {
            e.reads.extend(["rax", "rdx"]);
            e.writes.extend(["rax", "rdx"]);
        }
        "push" => {
            e.reads.push("rsp");
            e.writes.push("rsp");
            e.stores.push("qword ptr [rsp - 8]".into());
        }
        "pop" => {
            e.reads.push("rsp");
            e.writes.push("rsp");
            e.loads.push("qword ptr [rsp]".into());
        }
        "call" | "ret" => {
            e.reads.push("rsp");
            e.writes.push("rsp");
        }
        // mov rsp, rbp; pop rbp.
        "leave" => {
            e.reads.push("rbp");
            e.writes.extend(["rsp", "rbp"]);
            e.loads.push("qword ptr [rbp]".into());
        }
        _ => {}
    }
    e.reads.sort_unstable();
    e.reads.dedup();
    e.writes.sort_unstable();
    e.writes.dedup();
    e
}

/// The 64-bit AArch64 register names, as `'static` families.
const A64_X: [&str; 31] = [
    "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
    "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30",
];

/// The family of an AArch64 register name (`w3` -> `x3`, `wsp` -> `sp`, `lr` -> `x30`); None
/// for the zero register (no dependency) and for anything else.
pub fn a64_reg(t: &str) -> Option<&'static str> {
    let t = t.trim();
    match t {
        "sp" | "wsp" => return Some("sp"),
        "lr" => return Some("x30"),
        "fp" => return Some("x29"),
        "xzr" | "wzr" => return None,
        _ => {}
    }
    let n = t.strip_prefix('x').or_else(|| t.strip_prefix('w'))?;
    if n.is_empty() || n.len() > 2 || !n.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    A64_X.get(n.parse::<usize>().ok()?).copied()
}

fn a64_regs_in(text: &str) -> Vec<&'static str> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter_map(a64_reg).collect()
}

/// What one AArch64 instruction reads and writes (registers; the memory operand's text in
/// `loads`/`stores`): destination first except for stores, compares and branches; a pre- or
/// post-index access writes its base back.
pub fn a64_effects(i: &Insn) -> Effects {
    let op = i.op.as_str();
    let ops = operands(&i.args);
    let refs: Vec<&str> = ops.iter().map(String::as_str).collect();
    let mut e = Effects::default();
    let mem = ops.iter().find(|o| o.contains('[')).cloned();
    let writeback = a64_mem(&refs).filter(|m| m.2 != 0).map(|m| m.0);
    if op.starts_with("st") {
        e.reads.extend(ops.iter().flat_map(|o| a64_regs_in(o)));
        e.stores.extend(mem);
        // Store-exclusive writes its status register.
        if op.starts_with("stx") || op.starts_with("stlx") {
            e.writes.extend(ops.first().and_then(|o| a64_reg(o)));
        }
    } else if op.starts_with("ld") && mem.is_some() {
        for o in &ops {
            if o.contains('[') {
                e.reads.extend(a64_regs_in(o));
                break;
            }
            e.writes.extend(a64_reg(o));
        }
        e.loads.extend(mem);
    } else if matches!(op, "cbz" | "cbnz" | "tbz" | "tbnz") {
        e.reads.extend(ops.first().and_then(|o| a64_reg(o)));
    } else if op == "bl" || op == "blr" {
        e.reads.extend(ops.iter().flat_map(|o| a64_regs_in(o)));
        e.writes.push("x30");
    } else if op == "ret" {
        e.reads.push("x30");
    } else if i.is_jump() {
        e.reads.extend(ops.iter().flat_map(|o| a64_regs_in(o)));
    } else if matches!(op, "cmp" | "cmn" | "tst" | "ccmp" | "ccmn" | "fcmp" | "fccmp" | "prfm" | "nop") {
        e.reads.extend(ops.iter().flat_map(|o| a64_regs_in(o)));
    } else if let Some((dst, srcs)) = ops.split_first() {
        e.writes.extend(a64_reg(dst));
        e.reads.extend(srcs.iter().flat_map(|o| a64_regs_in(o)));
        // These merge into their destination.
        if matches!(op, "movk" | "bfi" | "bfxil" | "bfm") {
            e.reads.extend(a64_reg(dst));
        }
    }
    if let Some(b) = writeback.and_then(|b| a64_reg(&b)) {
        e.writes.push(b);
        e.reads.push(b);
    }
    e.reads.sort_unstable();
    e.reads.dedup();
    e.writes.sort_unstable();
    e.writes.dedup();
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aarch64_effects() {
        let e = a64_effects(&i("ldr", "w3, [x19, 132]"));
        assert_eq!((e.writes.clone(), e.reads.clone(), e.loads.len()), (vec!["x3"], vec!["x19"], 1));
        let e = a64_effects(&i("str", "w3, [x19, 132]"));
        assert_eq!((e.writes.len(), e.reads.clone(), e.stores.len()), (0, vec!["x19", "x3"], 1));
        let e = a64_effects(&i("stp", "x29, x30, [sp, -80]!"));
        assert_eq!(e.writes, vec!["sp"]);
        let e = a64_effects(&i("ldp", "x29, x30, [sp], 80"));
        assert_eq!(e.writes, vec!["sp", "x29", "x30"]);
        let e = a64_effects(&i("add", "x3, x19, x3, lsl 1"));
        assert_eq!((e.writes.clone(), e.reads.clone()), (vec!["x3"], vec!["x19", "x3"]));
        let e = a64_effects(&i("cmp", "w3, w2"));
        assert!(e.writes.is_empty() && e.reads == vec!["x2", "x3"]);
        let e = a64_effects(&i("mov", "w25, 0"));
        assert!(e.reads.is_empty() && e.writes == vec!["x25"]);
        assert!(a64_effects(&i("strb", "wzr, [sp, 145]")).reads == vec!["sp"]);
    }

    fn i(op: &str, a: &str) -> Insn {
        Insn { op: op.into(), args: a.into() }
    }

    #[test]
    fn families() {
        assert_eq!(family("r14d"), Some("r14"));
        assert_eq!(family("al"), Some("rax"));
        assert_eq!(family("sil"), Some("rsi"));
        assert_eq!(family("r1"), None);
        assert_eq!(family("ymm3"), Some("xmm3"));
    }

    #[test]
    fn simple_memory_operands() {
        assert_eq!(simple_mem("dword ptr [r13 + 132]"), Some(("r13", 132)));
        assert_eq!(simple_mem("qword ptr [rsp]"), Some(("rsp", 0)));
        assert_eq!(simple_mem("word ptr [r8 - 2]"), Some(("r8", -2)));
        assert_eq!(simple_mem("dword ptr [rsi + 2*rax]"), None);
        assert_eq!(simple_mem("qword ptr [rip + hl_x@GOTPCREL]"), None);
    }

    #[test]
    fn rmw_and_store_effects() {
        let e = effects(&i("inc", "dword ptr [r13 + 132]"));
        assert_eq!(e.loads, vec!["dword ptr [r13 + 132]"]);
        assert_eq!(e.stores, vec!["dword ptr [r13 + 132]"]);
        let e = effects(&i("mov", "dword ptr [rbp + 132], r14d"));
        assert!(e.loads.is_empty());
        assert_eq!(e.reads, vec!["r14", "rbp"]);
        let e = effects(&i("cmp", "eax, dword ptr [r13 + 128]"));
        assert!(e.stores.is_empty() && e.writes.is_empty());
        let e = effects(&i("xor", "ebp, ebp"));
        assert!(e.reads.is_empty() && e.writes == vec!["rbp"]);
        let e = effects(&i("movsxd", "r14, dword ptr [rbp + 132]"));
        assert_eq!(e.writes, vec!["r14"]);
        assert_eq!(e.loads.len(), 1);
    }
}
