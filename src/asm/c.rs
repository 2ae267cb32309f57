//! Asm snapshots of the C reference kernels ([`crate::ckernels`]): the compiler's own
//! `-S -masm=intel` output, which build.rs writes with the same arguments as the object build,
//! cut to one kernel's functions (entry, helpers, gcc's `.isra`/`.constprop`/`.cold` parts of
//! them) and normalised into the dialect of the Rust snapshots (cargo-show-asm's LLVM Intel
//! syntax) so that [`super::structure`] reads both: `DWORD PTR 132[rbx]` becomes
//! `dword ptr [rbx + 132]`, `0[r13+rcx*2]` becomes `[r13 + 2*rcx]`, `fs:40` becomes `fs:[40]`,
//! labels nothing jumps to are dropped, and the configuration suffix (`__gcc12_pg`) is removed
//! from symbol names so that snapshots of one kernel diff cleanly across configurations.
//!
//! AArch64 (the cross configuration `gcc12-pg-arm64`): gcc's own GNU syntax is kept operand for
//! operand (`ldr w3, [x19, 132]`); only its `//` comments, the optional `#` of immediates,
//! directives and unreferenced labels go, and the same renumbering applies. The header says
//! `# target: aarch64-linux-gnu`, which the readers of a snapshot ([`crate::asm::structure`],
//! [`crate::model`]) go by.
//!
//! Snapshot path: `asm-snapshots/<study>/c-<variant>@<config>.s`, with a header naming the
//! compiler, its version and the flags.

use crate::ckernels::{self, CConfig, CKernel, CrossKernel};
use anyhow::{Context, Result, bail};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The `-S` file build.rs wrote for `config` and translation unit `stem`.
pub fn raw_file(config: &str, stem: &str) -> PathBuf {
    Path::new(ckernels::ASM_DIR).join(config).join(format!("{stem}.s"))
}

/// Every `-S` file of `config`: (stem, text).
fn raw_files(config: &str) -> Result<Vec<(String, String)>> {
    let dir = Path::new(ckernels::ASM_DIR).join(config);
    let mut v = vec![];
    for e in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
        let p = e?.path();
        if p.extension().is_some_and(|x| x == "s") {
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            v.push((stem, std::fs::read_to_string(&p)?));
        }
    }
    v.sort();
    Ok(v)
}

/// The names of the functions defined in a `-S` file, in order (`name:` at column 0, not a
/// local `.L` label).
fn defined_functions(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let l = l.split('#').next().unwrap_or("").trim_end();
            let name = l.strip_suffix(':')?;
            (!name.starts_with('.') && !name.is_empty() && !name.contains(char::is_whitespace)).then(|| name.to_string())
        })
        .collect()
}

/// The raw text of function `name`: from its label to its `.size` directive.
fn function_text<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let start = text.lines().position(|l| l.split('#').next().unwrap_or("").trim_end() == format!("{name}:"))?;
    let lines: Vec<&str> = text.lines().collect();
    let end = lines[start..].iter().position(|l| l.trim_start().starts_with(&format!(".size\t{name},")) || l.trim_start().starts_with(&format!(".size {name},")))?;
    let from = lines[..start].iter().map(|l| l.len() + 1).sum::<usize>();
    let len = lines[start..start + end].iter().map(|l| l.len() + 1).sum::<usize>();
    Some(&text[from..from + len])
}

/// Every function of a whole `-S -masm=intel` file, normalised as the snapshots are: for
/// diffing a translation unit's functions between two builds (a PostgreSQL patch's).
pub fn normalized_functions(text: &str) -> Vec<(String, String)> {
    defined_functions(text).into_iter().filter_map(|d| function_text(text, &d).map(|body| { let n = normalize_function(body, ""); (d, n) })).collect()
}

/// gcc's Intel memory operand (`DWORD PTR -56[rbp]`, `0[r13+rcx*2]`, `sym[rip]`, `fs:40`) in
/// LLVM's spelling (`dword ptr [rbp - 56]`, `[r13 + 2*rcx]`, `[rip + sym]`, `fs:[40]`). LLVM's
/// own operands come out unchanged.
pub fn llvm_operand(op: &str) -> String {
    let mut s = op.trim().to_string();
    for (gnu, llvm) in [("XMMWORD PTR", "xmmword ptr"), ("QWORD PTR", "qword ptr"), ("DWORD PTR", "dword ptr"), ("WORD PTR", "word ptr"), ("BYTE PTR", "byte ptr"), ("OFFSET FLAT:", "offset ")] {
        s = s.replace(gnu, llvm);
    }
    // Segment with a bare displacement: `fs:40`.
    if let Some(i) = s.find("fs:") {
        let rest = &s[i + 3..];
        if !rest.starts_with('[') {
            s = format!("{}fs:[{}]", &s[..i], rest);
        }
    }
    let Some(open) = s.find('[') else { return s };
    let Some(close) = s.rfind(']') else { return s };
    // Prefix: size keyword and/or a displacement before '['.
    let before = &s[..open];
    let (kw, disp) = match before.rfind(' ') {
        Some(i) if before.contains("ptr") => (&before[..=i], before[i + 1..].trim()),
        _ if before.ends_with(':') => (before, ""),
        _ => ("", before.trim()),
    };
    // A segment prefix (`fs:`) stays outside the bracket.
    let (kw, disp) = if disp.ends_with(':') { (before, "") } else { (kw, disp) };
    // Terms of the bracket, with signs.
    let inner = s[open + 1..close].replace(' ', "");
    let mut terms: Vec<(char, String)> = vec![];
    let mut cur = String::new();
    let mut sign = '+';
    for c in inner.chars() {
        if (c == '+' || c == '-') && !cur.is_empty() {
            terms.push((sign, std::mem::take(&mut cur)));
            sign = c;
        } else if (c == '+' || c == '-') && cur.is_empty() {
            sign = c;
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        terms.push((sign, cur));
    }
    if !disp.is_empty() {
        let (sg, d) = match disp.strip_prefix('-') {
            Some(d) => ('-', d.to_string()),
            None => ('+', disp.to_string()),
        };
        terms.push((sg, d));
    }
    let is_reg = |t: &str| t.chars().all(|c| c.is_ascii_alphanumeric()) && t.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) && is_register(t);
    let mut base = vec![];
    let mut index = vec![];
    let mut rest = vec![];
    for (sg, t) in terms {
        if let Some((a, b)) = t.split_once('*') {
            let (reg, scale) = if a.chars().all(|c| c.is_ascii_digit()) { (b, a) } else { (a, b) };
            index.push(format!("{scale}*{reg}"));
        } else if is_reg(&t) && sg == '+' {
            base.push(t);
        } else if t == "0" {
            // `0[r13+rcx*2]`: gcc's explicit zero displacement.
        } else {
            rest.push((sg, t));
        }
    }
    let mut out = String::new();
    for (i, b) in base.iter().chain(index.iter()).enumerate() {
        if i > 0 {
            out.push_str(" + ");
        }
        out.push_str(b);
    }
    for (sg, t) in rest {
        if out.is_empty() {
            if sg == '-' {
                out.push('-');
            }
            out.push_str(&t);
        } else {
            out.push_str(if sg == '-' { " - " } else { " + " });
            out.push_str(&t);
        }
    }
    format!("{kw}[{out}]{}", &s[close + 1..])
}

fn is_register(t: &str) -> bool {
    const REGS: &[&str] = &[
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "rip", "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp",
    ];
    REGS.contains(&t) || (t.starts_with('r') && t[1..].trim_end_matches(['d', 'w', 'b']).parse::<u8>().is_ok_and(|n| (8..=15).contains(&n)))
}

/// Split an instruction's operands on commas outside brackets.
fn split_operands(args: &str) -> Vec<String> {
    let mut v = vec![];
    let (mut depth, mut cur) = (0, String::new());
    for c in args.chars() {
        match c {
            '[' => {
                depth += 1;
                cur.push(c)
            }
            ']' => {
                depth -= 1;
                cur.push(c)
            }
            ',' if depth == 0 => v.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        v.push(cur);
    }
    v
}

/// One function's raw `-S` text in the Rust snapshots' dialect: comments and directives
/// dropped, labels that nothing references dropped, operands respelled, `suffix` removed.
pub fn normalize_function(raw: &str, suffix: &str) -> String {
    normalize_function_for(raw, suffix, false)
}

/// [`normalize_function`] for x86-64 (`aarch64` false: Intel syntax respelled in LLVM's
/// dialect) or AArch64 (gcc's GNU syntax kept; `//` comments and the optional `#` before
/// immediates dropped, since the shared normaliser reads `#` as a comment).
pub fn normalize_function_for(raw: &str, suffix: &str, aarch64: bool) -> String {
    let strip = |l: &str| {
        if aarch64 {
            l.split("//").next().unwrap_or("").replace('#', "").trim().to_string()
        } else {
            l.split('#').next().unwrap_or("").trim().to_string()
        }
    };
    let lines: Vec<String> = raw.lines().map(strip).filter(|l| !l.is_empty()).collect();
    // Labels referenced from an instruction (jumps, tables, rip-relative operands).
    let mut used = BTreeSet::new();
    for l in &lines {
        if l.ends_with(':') || l.starts_with('.') {
            continue;
        }
        for tok in l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')) {
            if tok.starts_with(".L") {
                used.insert(tok.to_string());
            }
        }
    }
    let mut text = String::new();
    for l in &lines {
        if let Some(label) = l.strip_suffix(':') {
            if label.starts_with(".L") && !used.contains(label) {
                continue;
            }
            if !label.starts_with('.') || used.contains(label) {
                text.push_str(l);
                text.push('\n');
            }
            continue;
        }
        if l.starts_with('.') {
            continue;
        }
        let (op, args) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let ops: Vec<String> =
            split_operands(args.trim()).iter().map(|o| if aarch64 { o.trim().to_string() } else { llvm_operand(o) }).collect();
        text.push('\t');
        text.push_str(op);
        if !ops.is_empty() {
            text.push(' ');
            text.push_str(&ops.join(", "));
        }
        text.push('\n');
    }
    let text = text.replace(&format!("__{suffix}"), "");
    super::normalize(&text)
}

/// The functions that make up kernel `k`'s snapshot, in the order they appear in its
/// translation unit: the entry, its helpers, and any compiler-made part of them
/// (`<name>.isra.0`, `<name>.constprop.0`, `<name>.cold`, `<name>.part.0`). Returns the stem
/// of the translation unit and the raw text of each function.
pub fn kernel_functions(k: &CKernel) -> Result<(String, Vec<(String, String)>)> {
    functions_of(k.config, k.symbol, k.helpers)
}

/// [`kernel_functions`] of the kernel `symbol` (with `helpers`) under configuration `config`.
fn functions_of<S: AsRef<str>>(config: &str, symbol: &str, helpers: &[S]) -> Result<(String, Vec<(String, String)>)> {
    let wanted: Vec<&str> = std::iter::once(symbol).chain(helpers.iter().map(|h| h.as_ref())).collect();
    for (stem, text) in raw_files(config)? {
        let defined = defined_functions(&text);
        if !defined.iter().any(|d| d == symbol) {
            continue;
        }
        let mut out = vec![];
        for w in &wanted {
            for d in defined.iter().filter(|d| *d == w || d.strip_prefix(w).is_some_and(|r| r.starts_with('.'))) {
                let body = function_text(&text, d).with_context(|| format!("no end of {d} in {stem}.s"))?;
                out.push((d.clone(), body.to_string()));
            }
        }
        for w in &wanted {
            if !out.iter().any(|(d, _)| d.starts_with(w)) {
                bail!("{w} is not defined in {stem}.s under {config}");
            }
        }
        return Ok((stem, out));
    }
    bail!("no -S output of {config} defines {symbol}")
}

/// The header line an AArch64 snapshot carries (what [`is_aarch64_snapshot`] reads).
pub const AARCH64_HEADER: &str = "# target: aarch64-linux-gnu";

/// Is this snapshot text AArch64 code (its header says so)?
pub fn is_aarch64_snapshot(text: &str) -> bool {
    text.lines().take_while(|l| l.starts_with('#')).any(|l| l.trim() == AARCH64_HEADER)
}

/// The snapshot header of kernel `id` under configuration `c`.
fn header(id: &str, c: &CConfig, stem: &str) -> String {
    if c.is_aarch64() {
        return format!(
            "# hotloops asm snapshot of `{id}` under `{}` (csrc/{stem}.c)\n{AARCH64_HEADER}\n# compiler: {}\n# flags: {} -DHL_CONFIG={}\n# the compiler's -S output (GNU AArch64 syntax) with the arguments of the emulated test program's build; comments, `#` and directives dropped, labels renumbered; symbol suffix __{} dropped\n",
            c.name, c.version, c.flags, c.suffix, c.suffix
        );
    }
    format!(
        "# hotloops asm snapshot of `{id}` under `{}` (csrc/{stem}.c)\n# compiler: {}\n# flags: {} -DHL_CONFIG={}\n# the compiler's -S -masm=intel output with the object build's arguments, normalised to the Rust snapshots' dialect; symbol suffix __{} dropped\n",
        c.name, c.version, c.flags, c.suffix, c.suffix
    )
}

fn generate_from<S: AsRef<str>>(id: &str, config: &str, symbol: &str, helpers: &[S]) -> Result<String> {
    let c = ckernels::config(config)?;
    let (stem, funcs) = functions_of(config, symbol, helpers)?;
    let mut text = header(id, c, &stem);
    for (_, raw) in funcs {
        text.push('\n');
        text.push_str(&normalize_function_for(&raw, c.suffix, c.is_aarch64()));
    }
    Ok(text)
}

/// The normalised snapshot text of kernel `k`.
pub fn generate(k: &CKernel) -> Result<String> {
    generate_from(k.id, k.config, k.symbol, k.helpers)
}

/// The normalised snapshot text of cross kernel `k` (its configuration must be built here).
pub fn generate_cross(k: &CrossKernel) -> Result<String> {
    let c = ckernels::config(k.config)?;
    if !c.built {
        bail!("C configuration `{}` is not built here: {}", c.name, c.note);
    }
    generate_from(k.id, k.config, &k.symbol, &k.helpers)
}

/// Path of cross kernel `k`'s snapshot under `dir`.
pub fn cross_snapshot_file(dir: &Path, k: &CrossKernel) -> PathBuf {
    dir.join(k.snapshot_path())
}

/// Path of kernel `k`'s snapshot under `dir`.
pub fn snapshot_file(dir: &Path, k: &CKernel) -> PathBuf {
    dir.join(k.snapshot_path())
}

/// The base symbol of a C kernel function (suffix dropped), as it appears in the snapshots.
pub fn base_symbol(symbol: &str, k: &CKernel) -> String {
    let c = ckernels::config(k.config).map(|c| c.suffix).unwrap_or("");
    symbol.replace(&format!("__{c}"), "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcc_operands_in_llvm_spelling() {
        assert_eq!(llvm_operand("DWORD PTR 132[rbx]"), "dword ptr [rbx + 132]");
        assert_eq!(llvm_operand("QWORD PTR -56[rbp]"), "qword ptr [rbp - 56]");
        assert_eq!(llvm_operand("0[r13+rcx*2]"), "[r13 + 2*rcx]");
        assert_eq!(llvm_operand("128[rbx+rax*2]"), "[rbx + 2*rax + 128]");
        assert_eq!(llvm_operand("[rax+rax*4]"), "[rax + 4*rax]");
        assert_eq!(llvm_operand("QWORD PTR fs:40"), "qword ptr fs:[40]");
        assert_eq!(llvm_operand("hl_layout__gcc12_pg[rip]"), "[rip + hl_layout__gcc12_pg]");
        assert_eq!(llvm_operand("WORD PTR 4[rcx]"), "word ptr [rcx + 4]");
        assert_eq!(llvm_operand("BYTE PTR [r12]"), "byte ptr [r12]");
        // LLVM's own spelling is a fixed point.
        for s in ["dword ptr [r13 + 132]", "qword ptr [rbp - 48]", "[rsi + 2*rax]", "qword ptr fs:[40]", "eax", "1358"] {
            assert_eq!(llvm_operand(s), s);
        }
    }

    #[test]
    fn normalises_an_aarch64_gcc_function() {
        let raw = "f__gcc12_pg_arm64:\n.LFB1:\n\tstp\tx29, x30, [sp, -80]!\n.LVL3:\n\t.p2align 3,,7\n.L2:\n\tldr\tw2, [x19, 128] // lastItem\n\tcmp\tw3, w2\n\tble\t.L5\n\tbl\thl_bt_steppage\n\ttbz\tx0, #0, .L2\n.L5:\n\tldr\tx0, [x0, #:got_lo12:hl_sym]\n\tstr\tw3, [x19, 132]\n\tb\t.L2\n.LFE1:\n";
        assert_eq!(
            normalize_function_for(raw, "gcc12_pg_arm64", true),
            "f:\n\tstp x29, x30, [sp, -80]!\n.L0:\n\tldr w2, [x19, 128]\n\tcmp w3, w2\n\tble .L1\n\tbl hl_bt_steppage\n\ttbz x0, 0, .L0\n.L1:\n\tldr x0, [x0, :got_lo12:hl_sym]\n\tstr w3, [x19, 132]\n\tb .L0\n"
        );
    }

    #[test]
    fn normalises_a_gcc_function() {
        let raw = "f__gcc12_pg:\n.LFB1:\n\t.file 1 \"x.c\"\n\tpush\trbp\n.LVL3:\n.L2:\n\tmovsx\trax, DWORD PTR 132[rbx]\n\tjle\t.L5\n\tcall\thl_bt_steppage@PLT\n.L5:\n\tadd\tDWORD PTR 132[rbx], 1\n\tjmp\t.L2\n.LFE1:\n";
        assert_eq!(
            normalize_function(raw, "gcc12_pg"),
            "f:\n\tpush rbp\n.L0:\n\tmovsx rax, dword ptr [rbx + 132]\n\tjle .L1\n\tcall hl_bt_steppage@PLT\n.L1:\n\tadd dword ptr [rbx + 132], 1\n\tjmp .L0\n"
        );
    }
}
