//! The stack rewrite and the text llvm-mca reads.
//!
//! llvm-mca 19 has no stack engine (LLVM issue 152008): `call`, `ret`, `push` and `pop` all
//! read and write RSP, so an inlined helper's pushes and pops form a dependency chain through
//! RSP that real cores break with their stack engine; on call-heavy paths it tripled the
//! cycles (ground-truth.md §3). So: `call` and `ret` are dropped (the callee is inlined, or
//! not in the snapshot), `push r` becomes `mov qword ptr [rsp - 8*k], r` and `pop r` a load
//! from the same slot, with no RSP update; `sub/add rsp, N` stay (they are ALU operations).
//! Branch targets become one label at the block's head; symbols become one placeholder.
//! A frame pointer set up on the path (gcc's `-fno-omit-frame-pointer` helpers: `push rbp;
//! mov rbp, rsp ... leave`) follows the same rule: `mov rbp, rsp` becomes `lea rbp, [rsp -
//! 8*depth]` (the real frame's address, so `[rbp - d]` is the real slot), and `leave` becomes
//! `lea rsp, [rsp + N]` (undoing the frame's `sub rsp, N`) and the load of the saved RBP, so RSP
//! ends each trip where it started (an unrewritten `leave` moved it 8 bytes a trip, out of the
//! harness's buffer).
//!
//! AArch64 blocks: `bl`, `blr` and `ret` are dropped too (llvm-mca 19 warns that it does not
//! model calls and assumes 100 cycles for one), as is a tail `b` to a symbol; the saves and
//! restores stay as they are (`stp x29, x30, [sp, -32]!`, `ldp x29, x30, [sp], 32`): AArch64
//! has no push or pop, and the pre/post-index update of `sp` is an ordinary µop on these cores,
//! which llvm-mca models. Branches keep their condition or register operands and target the
//! block's label; relocated symbols (`:got:sym`, `:got_lo12:sym`, `:lo12:sym`) become the
//! placeholder.

use super::block::PathInsn;
use crate::asm::structure::Insn;

/// The label every branch of a rewritten block targets.
pub const BLOCK_LABEL: &str = ".Lhl_block";
/// The placeholder every symbol reference (`[rip + sym]`) is rewritten to.
pub const SYMBOL: &str = "hl_sym";

/// What the rewrite did, for the caveats.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rewritten {
    /// The rewritten instructions.
    pub insns: Vec<Insn>,
    /// For each rewritten instruction that is a jump: whether the path takes it.
    pub taken: Vec<Option<bool>>,
    /// Calls and rets dropped.
    pub calls_dropped: usize,
    /// Pushes and pops turned into stores and loads at fixed RSP offsets.
    pub push_pop_rewritten: usize,
    /// Tail jumps into inlined helpers dropped.
    pub tail_jumps_dropped: usize,
}

/// Rewrite a symbol reference (`[rip + anything]`) to the placeholder symbol.
fn neutral_symbols(args: &str) -> String {
    let mut out = String::new();
    let mut rest = args;
    while let Some(p) = rest.find("rip + ") {
        out.push_str(&rest[..p + 6]);
        let tail = &rest[p + 6..];
        let end = tail.find(']').unwrap_or(tail.len());
        out.push_str(SYMBOL);
        rest = &tail[end..];
    }
    out.push_str(rest);
    // `lea rcx, [rax + sym@DTPOFF]` and friends: any remaining `@` reference.
    if out.contains('@') || out.contains("::") {
        let mut s = String::new();
        for (k, piece) in out.split('+').enumerate() {
            if k > 0 {
                s.push('+');
            }
            if piece.contains('@') || piece.contains("::") {
                let keep_bracket = piece.trim_end().ends_with(']');
                s.push_str(&format!(" {SYMBOL}{}", if keep_bracket { "]" } else { "" }));
            } else {
                s.push_str(piece);
            }
        }
        out = s;
    }
    out
}

/// Shift every `[rsp + d]` of `args` by `-shift` bytes: after the rewrite RSP no longer
/// moves on push/call, so an inlined helper's stack slots are addressed from the loop's RSP.
fn shift_rsp(args: &str, shift: i64) -> String {
    if shift == 0 || !args.contains("[rsp") {
        return args.to_string();
    }
    super::regs::operands(args)
        .into_iter()
        .map(|o| match super::regs::simple_mem(&o) {
            Some(("rsp", d)) => {
                let open = o.find('[').unwrap();
                let nd = d - shift;
                let inner = if nd == 0 { "[rsp]".to_string() } else if nd < 0 { format!("[rsp - {}]", -nd) } else { format!("[rsp + {nd}]") };
                format!("{}{inner}", &o[..open])
            }
            _ => o,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// AArch64 symbol references in `args` as the placeholder: the symbol of a relocation
/// (`:got_lo12:__stack_chk_guard`), and a bare symbol or local label operand (`adrp x0, sym`).
fn a64_neutral_symbols(args: &str) -> String {
    super::regs::operands(args)
        .into_iter()
        .map(|o| {
            let neutral = |t: &str| -> String {
                if let Some(i) = t.rfind(':') {
                    return format!("{}{SYMBOL}", &t[..=i]);
                }
                let is_sym = t.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '.')
                    && !crate::asm::structure::is_a64_gpr(t)
                    && !matches!(t, "lsl" | "lsr" | "asr" | "ror" | "sxtw" | "uxtw" | "sxth" | "uxth" | "sxtb" | "uxtb" | "sxtx" | "uxtx")
                    && !t.starts_with(|c: char| c.is_ascii_digit() || c == '-')
                    && !is_cond(t)
                    && !t.contains(' ');
                if is_sym { SYMBOL.to_string() } else { t.to_string() }
            };
            match (o.find('['), o.rfind(']')) {
                (Some(a), Some(b)) => {
                    let inner: Vec<String> = o[a + 1..b].split(',').map(|t| neutral(t.trim())).collect();
                    format!("{}[{}]{}", &o[..a], inner.join(", "), &o[b + 1..])
                }
                _ => neutral(&o),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Is `t` an AArch64 condition (`csel w0, w1, w2, hi`)?
fn is_cond(t: &str) -> bool {
    matches!(t, "eq" | "ne" | "cs" | "hs" | "cc" | "lo" | "mi" | "pl" | "vs" | "vc" | "hi" | "ls" | "ge" | "lt" | "gt" | "le" | "al" | "nv")
}

/// The AArch64 rewrite of a steady path (see the module comment).
fn a64_rewrite(path: &[PathInsn]) -> Rewritten {
    let mut r = Rewritten::default();
    for p in path {
        let i = &p.insn;
        let before = r.insns.len();
        match i.op.as_str() {
            "bl" | "blr" | "ret" => r.calls_dropped += 1,
            _ if i.is_uncond_jump() && !i.args.trim().starts_with(".L") && i.op != "br" => r.tail_jumps_dropped += 1,
            _ if i.is_jump() && i.op != "br" => {
                // Keep the tested register (cbz w0, ...) and bit (tbz x0, 0, ...).
                let ops = super::regs::operands(&i.args);
                let keep = ops.len().saturating_sub(1);
                let mut args: Vec<String> = ops[..keep].to_vec();
                args.push(BLOCK_LABEL.into());
                r.insns.push(Insn { op: i.op.clone(), args: args.join(", ") });
            }
            _ => r.insns.push(Insn { op: i.op.clone(), args: a64_neutral_symbols(&i.args) }),
        }
        if r.insns.len() > before {
            r.taken.push(p.taken);
        }
    }
    r
}

/// Apply the stack rewrite to a steady path (x86-64 or AArch64, read from its instructions).
pub fn stack_rewrite(path: &[PathInsn]) -> Rewritten {
    if crate::asm::structure::Isa::of_insns(path.iter().map(|p| &p.insn)) == crate::asm::structure::Isa::Aarch64 {
        return a64_rewrite(path);
    }
    let mut r = Rewritten::default();
    // Pushes (and calls' return addresses) below RSP at the loop head, as in the real frame.
    let mut depth: i64 = 0;
    // Frame pointers set up on the path (`push rbp; mov rbp, rsp`), innermost last: the push
    // depth at `mov rbp, rsp`, and how far `sub/add rsp` have moved RSP since.
    let mut frames: Vec<(i64, i64)> = vec![];
    for (k, p) in path.iter().enumerate() {
        let i = &p.insn;
        let before = r.insns.len();
        let args = i.args.trim();
        let rsp_imm = (super::regs::operands(args).first().map(String::as_str) == Some("rsp"))
            .then(|| super::regs::operands(args).get(1).and_then(|v| v.parse::<i64>().ok()))
            .flatten();
        match i.op.as_str() {
            // A frame pointer: RBP is the real RSP, `8 * depth` below the unmoved one, so that
            // `[rbp - d]` addresses the slot the real frame has.
            "mov" if args == "rbp, rsp" => {
                frames.push((depth, 0));
                let a = if depth == 0 { "rbp, rsp".to_string() } else { format!("rbp, [rsp - {}]", 8 * depth) };
                r.insns.push(Insn { op: if depth == 0 { "mov" } else { "lea" }.into(), args: a });
            }
            // Any other copy of RSP (rustc's `mov r8, rsp` for `&mut ikey`): the real address.
            "mov" if depth != 0 && args.ends_with(", rsp") && super::regs::operands(args).first().is_some_and(|d| super::regs::family(d) == Some(d.as_str())) => {
                let d = super::regs::operands(args)[0].clone();
                r.insns.push(Insn { op: "lea".into(), args: format!("{d}, [rsp - {}]", 8 * depth) });
            }
            "sub" | "add" if rsp_imm.is_some() && !frames.is_empty() => {
                let n = rsp_imm.unwrap();
                frames.last_mut().unwrap().1 += if i.op == "sub" { n } else { -n };
                r.insns.push(Insn { op: i.op.clone(), args: args.into() });
            }
            // `leave` (and `mov rsp, rbp`) return RSP to the frame's: the `sub rsp` since undone
            // by a lea (leave sets no flags), not by copying RBP, which would chain RSP through
            // the saved RBP's reload (the real core's stack engine and memory renaming do not
            // wait on it); `leave`'s pop of RBP reads the push's slot.
            "leave" | "mov" if (i.op == "leave" || args == "rsp, rbp") && !frames.is_empty() => {
                let (fd, moved) = *frames.last().unwrap();
                if moved != 0 {
                    r.insns.push(Insn { op: "lea".into(), args: format!("rsp, [rsp + {moved}]") });
                    frames.last_mut().unwrap().1 = 0;
                }
                depth = fd;
                if i.op == "leave" {
                    r.push_pop_rewritten += 1;
                    r.insns.push(Insn { op: "mov".into(), args: format!("rbp, qword ptr [rsp - {}]", 8 * depth) });
                    depth -= 1;
                    frames.pop();
                }
            }
            "call" => {
                // Only a followed call's return address sits below the helper's frame.
                if super::block::enters_helper(path, k) {
                    depth += 1;
                }
                r.calls_dropped += 1;
            }
            "ret" => {
                depth -= 1;
                r.calls_dropped += 1;
            }
            "jmp" if !i.args.trim().starts_with(".L") => {
                // A tail jump: the callee (inlined after it) returns for the caller.
                r.tail_jumps_dropped += 1;
            }
            "push" => {
                depth += 1;
                r.push_pop_rewritten += 1;
                r.insns.push(Insn { op: "mov".into(), args: format!("qword ptr [rsp - {}], {}", 8 * depth, neutral_symbols(&i.args)) });
            }
            "pop" => {
                r.push_pop_rewritten += 1;
                r.insns.push(Insn { op: "mov".into(), args: format!("{}, qword ptr [rsp - {}]", i.args.trim(), 8 * depth) });
                // Popping the frame's saved RBP ends that frame.
                if args == "rbp" && frames.last().is_some_and(|f| f.0 == depth) {
                    frames.pop();
                }
                depth -= 1;
            }
            op if op.starts_with('j') => r.insns.push(Insn { op: op.into(), args: BLOCK_LABEL.into() }),
            _ => r.insns.push(Insn { op: i.op.clone(), args: shift_rsp(&neutral_symbols(&i.args), 8 * depth) }),
        }
        if r.insns.len() > before {
            r.taken.push(p.taken);
        }
    }
    r
}

/// A register-to-register `mov` of general-purpose registers (64- or 32-bit, two registers of
/// different families, no RSP): what a core's renamer (and llvm-mca) eliminates.
fn is_reg_move(i: &Insn) -> Option<(&'static str, &'static str)> {
    let ops = super::regs::operands(&i.args);
    if i.op != "mov" || ops.len() != 2 {
        return None;
    }
    // (family, width) of a 64- or 32-bit general-purpose register name.
    let gpr = |o: &str| {
        let f = super::regs::family(o).filter(|f| !f.starts_with("xmm") && *f != "rsp")?;
        let w = if f == o {
            64
        } else if (o.starts_with('e') && o.len() == 3) || (o.starts_with('r') && o.ends_with('d')) {
            32
        } else {
            return None;
        };
        Some((f, w))
    };
    let ((d, dw), (s, sw)) = (gpr(&ops[0])?, gpr(&ops[1])?);
    (d != s && dw == sw).then_some((d, s))
}

/// The moves of an x86-64 block that llvm-mca 19 is given as `lea dst, [src]` (one ALU
/// operation, as when a core does not eliminate the move): an eliminable `mov dst, src` whose
/// source is then written by two executed instructions before the move comes round again.
/// llvm-mca 19 keeps the eliminated move's destination on the source's physical register and
/// makes the second of those writes wait for the first, a write-after-write dependency a
/// renaming core does not have: in `mov rcx, rax; imul eax, eax, 3; lea rax, [rcx + 1]` the lea
/// waits for the imul in llvm-mca 19's znver3/znver4 models. As a lea the move costs one ALU
/// cycle instead, the error left (a core that eliminates it pays none). It set tid-batch/runs'
/// znver4 figure (`lea rax, [rbp + 10]` waiting on `sub eax, r14d` through `mov rbp, rax`) and
/// alloc-churn/static-routine's; figures in analysis/static-model-check.md.
pub fn llvm_mca_false_waw_moves(insns: &[Insn]) -> Vec<usize> {
    if crate::asm::structure::Isa::of_insns(insns) == crate::asm::structure::Isa::Aarch64 {
        return vec![];
    }
    let n = insns.len();
    (0..n)
        .filter(|&k| {
            let Some((_, src)) = is_reg_move(&insns[k]) else { return false };
            let writes = (1..n).map(|d| &insns[(k + d) % n]).filter(|j| is_reg_move(j).is_none() && super::regs::effects(j).writes.contains(&src)).count();
            writes >= 2
        })
        .collect()
}

/// The text llvm-mca reads: Intel syntax (x86-64) or GNU syntax (AArch64), one label, the
/// rewritten instructions; the moves of [`llvm_mca_false_waw_moves`] as `lea`.
pub fn mca_text(insns: &[Insn]) -> String {
    let a64 = crate::asm::structure::Isa::of_insns(insns) == crate::asm::structure::Isa::Aarch64;
    let mut s = if a64 { format!("{BLOCK_LABEL}:\n") } else { format!(".intel_syntax noprefix\n{BLOCK_LABEL}:\n") };
    let as_lea = llvm_mca_false_waw_moves(insns);
    for (k, i) in insns.iter().enumerate() {
        s.push('\t');
        if as_lea.contains(&k) {
            let ops = super::regs::operands(&i.args);
            let src = super::regs::family(&ops[1]).unwrap_or("rax");
            s.push_str(&format!("lea {}, [{src}]\n", ops[0]));
            continue;
        }
        s.push_str(llvm_mnemonic(i));
        if !i.args.is_empty() {
            s.push(' ');
            s.push_str(&i.args);
        }
        s.push('\n');
    }
    s
}

/// The mnemonic as LLVM's assembler wants it: gcc's Intel syntax spells the 32-to-64-bit
/// sign extension `movsx r64, r/m32`, which LLVM (and so llvm-mca) only accepts as `movsxd`.
fn llvm_mnemonic(i: &Insn) -> &str {
    let to64 = i.args.split(',').next().is_some_and(|d| d.trim().starts_with('r') && !d.trim().ends_with(['b', 'w', 'd']));
    let from32 = i.args.split_once(',').is_some_and(|(_, src)| {
        let src = src.trim();
        src.starts_with("dword ptr") || (src.starts_with('e') && src.len() == 3) || (src.starts_with('r') && src.ends_with('d'))
    });
    if i.op == "movsx" && to64 && from32 { "movsxd" } else { &i.op }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcc_sign_extensions_are_spelt_for_llvm() {
        let i = |op: &str, a: &str| Insn { op: op.into(), args: a.into() };
        assert_eq!(llvm_mnemonic(&i("movsx", "rax, dword ptr [rbx + 132]")), "movsxd");
        assert_eq!(llvm_mnemonic(&i("movsx", "rcx, r15d")), "movsxd");
        assert_eq!(llvm_mnemonic(&i("movsx", "rcx, eax")), "movsxd");
        assert_eq!(llvm_mnemonic(&i("movsx", "eax, word ptr [rdi]")), "movsx");
        assert_eq!(llvm_mnemonic(&i("movsx", "rax, byte ptr [rdi]")), "movsx");
        assert_eq!(llvm_mnemonic(&i("mov", "rax, qword ptr [rdi]")), "mov");
    }

    fn p(op: &str, a: &str) -> PathInsn {
        PathInsn { insn: Insn { op: op.into(), args: a.into() }, symbol: "f".into(), depth: 0, taken: None }
    }

    #[test]
    fn calls_rets_pushes_and_pops_are_rewritten() {
        let mut path = vec![
            p("mov", "rdi, rbx"),
            p("call", "qword ptr [rip + hl_a@GOTPCREL]"),
            p("push", "rbx"),
            p("push", "rax"),
            p("mov", "eax, dword ptr [rdi + 4]"),
            p("mov", "dword ptr [rsp + 4], eax"),
            p("pop", "rcx"),
            p("pop", "rbx"),
            p("ret", ""),
            p("jne", ".L3"),
        ];
        // The helper's instructions (after the call, up to its ret) are inlined one level down.
        for x in &mut path[2..8] {
            x.depth = 1;
        }
        let r = stack_rewrite(&path);
        let text: Vec<String> = r.insns.iter().map(|i| format!("{} {}", i.op, i.args)).collect();
        assert_eq!(
            text,
            vec![
                "mov rdi, rbx",
                "mov qword ptr [rsp - 16], rbx",
                "mov qword ptr [rsp - 24], rax",
                "mov eax, dword ptr [rdi + 4]",
                // The helper's [rsp + 4] after a call and two pushes is the loop's [rsp - 20].
                "mov dword ptr [rsp - 20], eax",
                "mov rcx, qword ptr [rsp - 24]",
                "mov rbx, qword ptr [rsp - 16]",
                "jne .Lhl_block",
            ]
        );
        assert_eq!((r.calls_dropped, r.push_pop_rewritten), (2, 4));
        assert!(!text.iter().any(|t| t.starts_with("call") || t.starts_with("ret") || t.starts_with("push") || t.starts_with("pop")));
        // A call that is not followed (its callee is outside the snapshot) moves no slot.
        let r = stack_rewrite(&[p("call", "r14"), p("push", "rbx"), p("pop", "rbx")]);
        assert_eq!(r.insns[0].args, "qword ptr [rsp - 8], rbx");
    }

    #[test]
    fn frame_pointers_and_leave_keep_rsp_where_it_started() {
        // gcc12-pg's _bt_checkkeys and _bt_check_compare: both set up a frame, one leaves it
        // with `leave`, the other with `add rsp`/`pop rbp` (clang's shape).
        let mut path = vec![
            p("call", "hl_k"),
            p("push", "rbp"),
            p("mov", "rbp, rsp"),
            p("sub", "rsp, 16"),
            p("mov", "dword ptr [rbp - 12], ecx"),
            p("call", "hl_c"),
            p("push", "rbp"),
            p("mov", "rbp, rsp"),
            p("push", "rbx"),
            p("mov", "rbx, qword ptr [rbp - 8]"),
            p("leave", ""),
            p("ret", ""),
            p("mov", "rdx, qword ptr [rbp - 8]"),
            p("leave", ""),
            p("ret", ""),
            p("jne", ".L3"),
        ];
        for x in &mut path[1..15] {
            x.depth = 1;
        }
        for x in &mut path[6..12] {
            x.depth = 2;
        }
        let r = stack_rewrite(&path);
        let text: Vec<String> = r.insns.iter().map(|i| format!("{} {}", i.op, i.args)).collect();
        assert_eq!(
            text,
            vec![
                "mov qword ptr [rsp - 16], rbp",
                "lea rbp, [rsp - 16]",
                "sub rsp, 16",
                "mov dword ptr [rbp - 12], ecx",
                "mov qword ptr [rsp - 32], rbp",
                "lea rbp, [rsp - 32]",
                "mov qword ptr [rsp - 40], rbx",
                // [rbp - 8] is rbx's slot, as in the real frame.
                "mov rbx, qword ptr [rbp - 8]",
                "mov rbp, qword ptr [rsp - 32]",
                "mov rdx, qword ptr [rbp - 8]",
                // Back to the loop's RSP (the sub undone), the caller's RBP reloaded.
                "lea rsp, [rsp + 16]",
                "mov rbp, qword ptr [rsp - 16]",
                "jne .Lhl_block",
            ]
        );
        assert!(!text.iter().any(|t| t.starts_with("leave")));
        // A copy of RSP inside a helper is the real RSP too.
        let mut q = vec![p("call", "hl_k"), p("sub", "rsp, 24"), p("mov", "r8, rsp"), p("add", "rsp, 24"), p("ret", "")];
        for x in &mut q[1..5] {
            x.depth = 1;
        }
        assert_eq!(stack_rewrite(&q).insns[1].args, "r8, [rsp - 8]");
        // clang's epilogue: `add rsp, 16; pop rbp` ends the frame too.
        let r = stack_rewrite(&[p("push", "rbp"), p("mov", "rbp, rsp"), p("sub", "rsp, 16"), p("add", "rsp, 16"), p("pop", "rbp")]);
        let text: Vec<String> = r.insns.iter().map(|i| format!("{} {}", i.op, i.args)).collect();
        assert_eq!(text, vec!["mov qword ptr [rsp - 8], rbp", "lea rbp, [rsp - 8]", "sub rsp, 16", "add rsp, 16", "mov rbp, qword ptr [rsp - 8]"]);
    }

    #[test]
    fn aarch64_calls_and_returns_go_branches_target_the_block() {
        let mut path = vec![
            p("ldr", "w1, [x1, 28]"),
            p("bl", "hl_bt_check_compare"),
            p("ldr", "x7, [x0, 56]"),
            p("cbz", "w10, .L3"),
            p("tbnz", "x0, 0, .L4"),
            p("ble", ".L2"),
            p("ret", ""),
            p("adrp", "x1, :got:__stack_chk_guard"),
            p("ldr", "x1, [x1, :got_lo12:__stack_chk_guard]"),
            p("add", "x3, x19, x3, lsl 1"),
            p("csel", "w4, w4, wzr, pl"),
            p("b", ".L0"),
        ];
        path[2].depth = 1;
        let r = stack_rewrite(&path);
        let text: Vec<String> = r.insns.iter().map(|i| format!("{} {}", i.op, i.args)).collect();
        assert_eq!(
            text,
            vec![
                "ldr w1, [x1, 28]",
                "ldr x7, [x0, 56]",
                "cbz w10, .Lhl_block",
                "tbnz x0, 0, .Lhl_block",
                "ble .Lhl_block",
                "adrp x1, :got:hl_sym",
                "ldr x1, [x1, :got_lo12:hl_sym]",
                "add x3, x19, x3, lsl 1",
                "csel w4, w4, wzr, pl",
                "b .Lhl_block",
            ]
        );
        assert_eq!(r.calls_dropped, 2);
        assert!(!mca_text(&r.insns).contains("intel_syntax"));
    }

    #[test]
    fn llvm_mca_gets_moves_whose_source_is_rewritten_twice_as_lea() {
        let i = |op: &str, a: &str| Insn { op: op.into(), args: a.into() };
        // The minimal case: llvm-mca 19's Zen models make the lea wait for the imul.
        let b = vec![i("mov", "rcx, rax"), i("imul", "eax, eax, 3"), i("lea", "rax, [rcx + 1]")];
        assert_eq!(llvm_mca_false_waw_moves(&b), vec![0]);
        assert!(mca_text(&b).contains("\tlea rcx, [rax]\n"), "{}", mca_text(&b));
        // One executed write of the source (the other an eliminable move): left as it is.
        let b = vec![i("mov", "rcx, rax"), i("sub", "eax, r14d"), i("add", "rcx, 1"), i("mov", "rax, rcx")];
        assert!(llvm_mca_false_waw_moves(&b).is_empty());
        // 32-bit moves count; a move to or from RSP, a narrower one or a load is no reg move.
        assert_eq!(llvm_mca_false_waw_moves(&[i("mov", "ecx, eax"), i("add", "eax, 1"), i("add", "eax, 2")]), vec![0]);
        for m in ["rsp, rax", "cx, ax", "rcx, qword ptr [rax]", "rcx, rcx"] {
            assert!(llvm_mca_false_waw_moves(&[i("mov", m), i("add", "rax, 1"), i("add", "rax, 2")]).is_empty(), "{m}");
        }
    }

    #[test]
    fn symbols_become_one_placeholder() {
        assert_eq!(neutral_symbols("rax, qword ptr [rip + hotloops::pg::nbtree::bt_steppage@GOTPCREL]"), "rax, qword ptr [rip + hl_sym]");
        assert_eq!(neutral_symbols("rcx, [rip + .Lanon]"), "rcx, [rip + hl_sym]");
        assert_eq!(neutral_symbols("rdx, qword ptr [rax + a::b::C@DTPOFF]"), "rdx, qword ptr [rax + hl_sym]");
        assert_eq!(neutral_symbols("eax, dword ptr [r13 + 132]"), "eax, dword ptr [r13 + 132]");
    }
}
