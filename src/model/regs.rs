//! x86-64 register names and operand pieces of the normalised (Intel-syntax) asm: what the
//! recurrence detector and the rewrites need to know about an instruction beyond its text.

use crate::asm::structure::Insn;

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
        _ => {}
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
