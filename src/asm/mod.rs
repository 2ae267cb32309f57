//! Assembly: generate a kernel's asm with cargo-show-asm, normalise it so unrelated changes do
//! not churn snapshots, diff it, and read loop structure out of it for the structural tests.

pub mod c;
pub mod structure;

use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cargo-show-asm release the snapshots were produced with (scripts/install-tools.sh).
pub const CARGO_SHOW_ASM_VERSION: &str = "0.2.64";

use crate::host::crate_root;

/// `asm-snapshots/` of this crate.
pub fn snapshot_dir() -> PathBuf {
    crate_root().join("asm-snapshots")
}

/// The symbols whose asm makes up the snapshot of variant `id`'s kernel: the entry, then its
/// helpers (a variant that shares a kernel shares its owner's snapshot).
pub fn symbols_of(id: &str) -> Result<Vec<&'static str>> {
    let (_, v) = crate::study::variant(id)?;
    Ok(crate::study::kernel_owner(v).symbols())
}

/// Check that `cargo asm` (cargo-show-asm) is installed, with a message that says how.
pub fn check_tool() -> Result<()> {
    let out = crate::host::cleanup::output(Command::new("cargo").args(["asm", "--version"]));
    match out {
        Ok(o) if o.status.success() => Ok(()),
        _ => bail!(
            "cargo-show-asm is not installed (needed to regenerate assembly).\n\
             Install the pinned version with `scripts/install-tools.sh`, or\n  \
             cargo install cargo-show-asm --version {CARGO_SHOW_ASM_VERSION} --locked"
        ),
    }
}

/// Raw asm of one unmangled symbol of the library, release profile, no features.
pub fn raw_asm(symbol: &str) -> Result<String> {
    let run = |extra: Option<&str>| -> Result<String> {
        let mut cmd = Command::new("cargo");
        cmd.current_dir(crate_root())
            .args(["asm", "--lib", "--release", "--no-color", "-s", "--no-default-features"])
            .arg("--manifest-path")
            .arg(crate_root().join("Cargo.toml"))
            .arg(symbol);
        if let Some(i) = extra {
            cmd.arg(i);
        }
        // Registered with the one cleanup: an interrupt kills cargo and the rustc it runs.
        let out = crate::host::cleanup::output(&mut cmd).context("running cargo asm")?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            let hint = if err.contains("Can't find any items") {
                "\n(no code under that name: if the kernel compiles to the same code as another \
                 function, LLVM merges the two and keeps one symbol; compare the variants' sources)"
            } else {
                ""
            };
            bail!("cargo asm {symbol} failed:\n{err}{hint}");
        }
        Ok(String::from_utf8(out.stdout)?)
    };
    let text = run(None)?;
    // Several symbols contain the name: cargo-show-asm lists them as `N "name" [len]`; pick
    // the exact one by index.
    if !text.contains(&format!("{symbol}:")) {
        let idx = text
            .lines()
            .find_map(|l| {
                let mut parts = l.trim().splitn(2, ' ');
                let n = parts.next()?;
                let rest = parts.next()?;
                (rest.starts_with(&format!("\"{symbol}\""))).then(|| n.to_string())
            })
            .ok_or_else(|| anyhow!("cargo asm found no function `{symbol}`:\n{text}"))?;
        return run(Some(&idx));
    }
    Ok(text)
}

/// Normalise asm: drop directives and comments, keep labels that are jumped to, renumber them
/// in order of appearance, strip symbol hashes and anonymous-constant hashes.
pub fn normalize(raw: &str) -> String {
    let mut labels: Vec<String> = Vec::new();
    let label_no = |l: &str, labels: &mut Vec<String>| -> usize {
        if let Some(i) = labels.iter().position(|x| x == l) {
            i
        } else {
            labels.push(l.to_string());
            labels.len() - 1
        }
    };
    let mut out = String::new();
    for line in raw.lines() {
        let line = match line.find('#') {
            Some(i) => &line[..i],
            None => line,
        };
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        // Directives (`.cfi_*`, `.p2align`, `.section`, ...) but not local labels.
        if t.starts_with('.') && !t.starts_with(".L") {
            continue;
        }
        let mut s = strip_hashes(t);
        // Rewrite every .LBB/.LBBn_m/.Ltmp label to .L<k>.
        let mut rebuilt = String::new();
        let mut rest = s.as_str();
        while let Some(p) = rest.find(".L") {
            rebuilt.push_str(&rest[..p]);
            let tail = &rest[p..];
            let end = tail[2..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                .map(|e| e + 2)
                .unwrap_or(tail.len());
            let name = &tail[..end];
            if name.starts_with(".Lanon") {
                rebuilt.push_str(".Lanon");
            } else {
                let k = label_no(name, &mut labels);
                rebuilt.push_str(&format!(".L{k}"));
            }
            rest = &tail[end..];
        }
        rebuilt.push_str(rest);
        s = rebuilt;
        if s.ends_with(':') {
            out.push_str(&s);
        } else {
            out.push('\t');
            out.push_str(&s);
        }
        out.push('\n');
    }
    out
}

/// Strip Rust symbol hashes (`17h0123456789abcdefE`, `::h0123456789abcdef`) and the numeric
/// suffix of anonymous constants.
fn strip_hashes(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'h' && i + 17 <= b.len() && b[i + 1..i + 17].iter().all(|c| c.is_ascii_hexdigit()) {
            let before_ok = i >= 2 && (&s[i - 2..i] == "::" || s[..i].ends_with("17"));
            if before_ok {
                // `::h<hash>` -> drop with the `::`; `17h<hash>E` -> drop with `17` and `E`.
                if s[..i].ends_with("::") {
                    out.truncate(out.len() - 2);
                    i += 17;
                } else {
                    out.truncate(out.len() - 2);
                    i += 17;
                    if i < b.len() && b[i] == b'E' {
                        i += 1;
                    }
                }
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// The normalised snapshot text of variant `id`'s kernel: a header, then each symbol's asm.
pub fn generate(id: &str) -> Result<String> {
    let (_, v) = crate::study::variant(id)?;
    if v.is_c() {
        // A C kernel: the compiler's own -S output under its configuration.
        return c::generate(crate::ckernels::kernel(v.base_id(), v.config)?);
    }
    let owner = crate::study::kernel_owner(v).id;
    let mut text = format!(
        "# hotloops asm snapshot of `{owner}`\n# {}, x86_64, release profile, cargo-show-asm {CARGO_SHOW_ASM_VERSION}; normalised\n",
        crate::host::cpu::rustc_version_pinned()
    );
    for sym in symbols_of(id)? {
        let raw = raw_asm(sym)?;
        text.push('\n');
        text.push_str(&normalize(&raw));
    }
    Ok(text)
}

/// Path of the snapshot of `id`'s kernel under `dir` (keyed by the kernel: variants that
/// share one share its file). An unknown id gives the path it would have.
pub fn snapshot_file(dir: &Path, id: &str) -> PathBuf {
    match crate::study::variant(id) {
        Ok((_, v)) => dir.join(crate::study::snapshot_path(v)),
        Err(_) => dir.join(format!("{id}.s")),
    }
}

/// Read `id`'s checked-in snapshot.
pub fn read_snapshot(dir: &Path, id: &str) -> Result<String> {
    let p = snapshot_file(dir, id);
    std::fs::read_to_string(&p).with_context(|| format!("reading asm snapshot {}", p.display()))
}

/// Write `id`'s snapshot atomically.
pub fn write_snapshot(dir: &Path, id: &str, text: &str) -> Result<()> {
    let p = snapshot_file(dir, id);
    crate::host::write_atomic(&p, text.as_bytes())
}

/// A unified diff of two texts (empty if equal).
pub fn unified_diff(a_name: &str, a: &str, b_name: &str, b: &str) -> String {
    if a == b {
        return String::new();
    }
    similar::TextDiff::from_lines(a, b).unified_diff().context_radius(3).header(a_name, b_name).to_string()
}

/// The body of one symbol within a snapshot (from its `name:` line to the next symbol).
pub fn symbol_body<'a>(snapshot: &'a str, symbol: &str) -> Option<&'a str> {
    let start = snapshot.find(&format!("\n{symbol}:\n"))? + 1;
    let rest = &snapshot[start..];
    // Up to the next symbol (a label line that is not a local `.L` label).
    let mut end = rest.len();
    let mut at = rest.find('\n').map_or(rest.len(), |i| i + 1);
    while at < rest.len() {
        let line = rest[at..].lines().next().unwrap_or("");
        if line.ends_with(':') && !line.starts_with('.') && !line.starts_with(char::is_whitespace) {
            end = at;
            break;
        }
        at += line.len() + 1;
    }
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_drops_directives_and_renumbers() {
        let raw = "\t.section .text.f,\"ax\",@progbits\n\t.globl\tf\nf:\n\t.cfi_startproc\n\tjmp .LBB81_4\n.LBB81_4:\n\tmov eax, 1 # comment\n\tlea rcx, [rip + .Lanon.e54c91159163d60d9a285f0b840903a2.97]\n\tcall qword ptr [rip + core::panicking::panic_bounds_check::h0123456789abcdef@GOTPCREL]\n\tcall _ZN4core3fmt17h0123456789abcdefE\n\tjne .LBB81_4\n";
        let n = normalize(raw);
        assert_eq!(
            n,
            "f:\n\tjmp .L0\n.L0:\n\tmov eax, 1\n\tlea rcx, [rip + .Lanon]\n\tcall qword ptr [rip + core::panicking::panic_bounds_check@GOTPCREL]\n\tcall _ZN4core3fmt\n\tjne .L0\n"
        );
    }

    #[test]
    fn diff_is_empty_for_equal_and_readable_otherwise() {
        assert!(unified_diff("a", "x\n", "b", "x\n").is_empty());
        let d = unified_diff("a", "mov eax, 1\n", "b", "mov eax, 2\n");
        assert!(d.contains("-mov eax, 1") && d.contains("+mov eax, 2"), "{d}");
    }
}
