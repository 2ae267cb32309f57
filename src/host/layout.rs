//! Code layout as a measured dimension. Where the linker puts a kernel moves its loop across
//! 64-byte lines and 32-byte windows, and on these hosts that alone can move a ratio by 20%
//! (Mytkowicz et al., ASPLOS 2009): every process of one binary shares its layout, so pooling
//! processes cannot see it. So each wall-clock pair is measured under several layouts:
//!
//! - `natural`: the `hotloops` binary as the linker laid it out;
//! - `at-K` (K = 0, 16, 32, 48): the `hotloops-layout-at-K` binaries, the same objects linked
//!   with an lld symbol ordering file (build.rs `layout`) that puts a K-byte pad, 64-byte
//!   aligned and never executed, before every kernel and helper. A Rust kernel then starts at
//!   K mod 64; a C translation unit's `.text` moves as one by K. Its loops move with it.
//!
//! Only link order differs between them, so digests and instruction counts are the same
//! (`tests/layout.rs` checks both and reads each kernel's and loop header's address from each
//! binary). Each binary also records the cargo features it was built with (a section build.rs
//! writes): cargo rebuilds only the binary it runs (`cargo run`), so the layout binaries can be
//! left from a build with other features, and [`ensure`] rebuilds them before a worker starts. Each measuring process also gets its own heap offset (a small allocation made
//! first) and stack offset (an environment variable of some length, which moves the initial
//! stack), drawn per process.

use anyhow::{Context, Result, bail};
use object::{Object, ObjectSymbol};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

// The pads the ordering files name, one per (kernel or helper, offset); retained sections
// (SHF_GNU_RETAIN), so they are in every binary, where they are never called.
core::arch::global_asm!(include_str!(concat!(env!("OUT_DIR"), "/layout_pads.s")));

/// The kernels and helpers build.rs placed (one per line): what the ordering files move.
pub const PLACED_SYMBOLS: &str = include_str!(concat!(env!("OUT_DIR"), "/layout_symbols.txt"));

/// One code layout: a binary and how its kernels were placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `natural` or `at-K`: the name in reports and on the command line.
    pub id: &'static str,
    /// The binary's file name (beside `hotloops`).
    pub bin: &'static str,
    /// Where every kernel starts, mod 64; None: wherever the linker put it.
    pub offset: Option<u32>,
}

/// Every layout, natural first.
pub const LAYOUTS: &[Layout] = &[
    Layout { id: "natural", bin: "hotloops", offset: None },
    Layout { id: "at-0", bin: "hotloops-layout-at-0", offset: Some(0) },
    Layout { id: "at-16", bin: "hotloops-layout-at-16", offset: Some(16) },
    Layout { id: "at-32", bin: "hotloops-layout-at-32", offset: Some(32) },
    Layout { id: "at-48", bin: "hotloops-layout-at-48", offset: Some(48) },
];

/// The quick report's layouts: two, whose offsets differ by 48 bytes, so every loop sits
/// differently against both the 64-byte line and the 32-byte window.
pub const QUICK: &[&str] = &["at-0", "at-48"];

/// The full report's layouts: all five.
pub const FULL: &[&str] = &["natural", "at-0", "at-16", "at-32", "at-48"];

/// A layout by id; an unknown one lists the valid ids.
pub fn layout(id: &str) -> Result<&'static Layout> {
    LAYOUTS.iter().find(|l| l.id == id).with_context(|| {
        format!("unknown layout `{id}`; valid: {}", LAYOUTS.iter().map(|l| l.id).collect::<Vec<_>>().join(", "))
    })
}

/// Where one function sits in a binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Placement {
    /// Link address.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// Address of its innermost loop's header (the target of its shortest backward branch),
    /// when it has a loop and objdump could read it.
    pub loop_header: Option<u64>,
}

impl Placement {
    /// The function's start, mod 64.
    pub fn offset(&self) -> u32 {
        (self.addr % 64) as u32
    }
    /// Its loop header, mod 64.
    pub fn loop_offset(&self) -> Option<u32> {
        self.loop_header.map(|a| (a % 64) as u32)
    }
}

/// The binaries of every layout: the directory `hotloops` is in.
pub fn binary(dir: &Path, l: &Layout) -> PathBuf {
    dir.join(format!("{}{}", l.bin, std::env::consts::EXE_SUFFIX))
}

/// Address and size of every `hotloops_*` and `hl_*` function in an ELF binary.
pub fn functions(bin: &Path) -> Result<BTreeMap<String, (u64, u64)>> {
    let data = std::fs::read(bin).with_context(|| format!("reading {}", bin.display()))?;
    let file = object::File::parse(&*data).with_context(|| format!("{} is not an ELF binary hotloops can read", bin.display()))?;
    let mut out = BTreeMap::new();
    for s in file.symbols() {
        let Ok(name) = s.name() else { continue };
        if s.kind() == object::SymbolKind::Text && (name.starts_with("hotloops_") || name.starts_with("hl_")) && !name.starts_with("hotloops_layout_pad_") {
            out.insert(name.to_string(), (s.address(), s.size()));
        }
    }
    if out.is_empty() {
        bail!("{} has no hotloops_* symbols: not a hotloops binary, or stripped", bin.display());
    }
    Ok(out)
}

/// The innermost loop header of the function at [addr, addr+size) in `bin`, from objdump's
/// disassembly: the target of the backward branch that spans the fewest bytes.
pub fn loop_header(bin: &Path, addr: u64, size: u64) -> Result<Option<u64>> {
    let out = super::cleanup::output(
        Command::new("objdump").args(["-d", "--no-show-raw-insn", &format!("--start-address={addr:#x}"), &format!("--stop-address={:#x}", addr + size)]).arg(bin),
    )
    .context("running objdump (apt-get install binutils)")?;
    if !out.status.success() {
        bail!("objdump -d {} failed: {}", bin.display(), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(shortest_back_edge(&String::from_utf8_lossy(&out.stdout), addr, addr + size))
}

/// The target of the shortest backward branch within [lo, hi) in objdump `-d` text.
pub fn shortest_back_edge(disasm: &str, lo: u64, hi: u64) -> Option<u64> {
    let mut best: Option<(u64, u64)> = None;
    for line in disasm.lines() {
        let Some((at, insn)) = line.trim_start().split_once(":\t") else { continue };
        let Ok(at) = u64::from_str_radix(at.trim(), 16) else { continue };
        let mut parts = insn.split_whitespace();
        let Some(mn) = parts.next() else { continue };
        if !mn.starts_with('j') {
            continue;
        }
        let Some(target) = parts.next().and_then(|t| u64::from_str_radix(t, 16).ok()) else { continue };
        if target <= at && target >= lo && target < hi {
            let span = at - target;
            if best.is_none_or(|(s, _)| span < s) {
                best = Some((span, target));
            }
        }
    }
    best.map(|(_, t)| t)
}

/// Where each of `symbols` sits in `bin` (loop headers included; objdump missing makes those
/// None). A symbol missing from the binary is an error.
pub fn placements(bin: &Path, symbols: &[&str]) -> Result<BTreeMap<String, Placement>> {
    let fns = functions(bin)?;
    let mut out = BTreeMap::new();
    for s in symbols {
        let &(addr, size) = fns.get(*s).with_context(|| format!("{} has no symbol {s}", bin.display()))?;
        let loop_header = loop_header(bin, addr, size).ok().flatten();
        out.insert(s.to_string(), Placement { addr, size, loop_header });
    }
    Ok(out)
}

/// The cargo features `bin` was built with, sorted: the `.hotloops_features` section build.rs
/// puts in every binary (`[local-index,read-stream]`). A binary without it was built before
/// the section existed: an error, as for any other build.
pub fn features_of(bin: &Path) -> Result<Vec<String>> {
    use object::ObjectSection as _;
    let data = std::fs::read(bin).with_context(|| format!("reading {}", bin.display()))?;
    let file = object::File::parse(&*data).with_context(|| format!("{} is not an ELF binary hotloops can read", bin.display()))?;
    let section = file.section_by_name(".hotloops_features").with_context(|| format!("{} does not record its cargo features (an older build)", bin.display()))?;
    let text = section.data().with_context(|| format!("reading {}'s features", bin.display()))?;
    let list = std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.trim_end_matches('\0').strip_prefix('[')?.strip_suffix(']').map(str::to_string))
        .with_context(|| format!("{}: its features section is not `[a,b]`", bin.display()))?;
    let mut out: Vec<String> = list.split(',').filter(|f| !f.is_empty()).map(str::to_string).collect();
    out.sort();
    Ok(out)
}

/// Check that `bin` was built with `features` (in any order).
fn same_features(bin: &Path, features: &[String]) -> Result<()> {
    let theirs = features_of(bin)?;
    let mut mine = features.to_vec();
    mine.sort();
    if theirs != mine {
        bail!("{} was built with features [{}], this run has [{}]", bin.display(), theirs.join(","), mine.join(","));
    }
    Ok(())
}

/// Check that `other` holds the same code as `reference`: the same `hotloops_*`/`hl_*`
/// functions with the same sizes (a layout binary left from an older build differs).
pub fn same_code(reference: &Path, other: &Path) -> Result<()> {
    same_functions(&functions(reference)?, &functions(other)?)
        .map_err(|e| anyhow::anyhow!("{} is not the same build as {} ({e}): rebuild both with `cargo build --release --bins`", other.display(), reference.display()))
}

/// [`same_code`] on two symbol tables: the same functions, each of the same size.
pub fn same_functions(a: &BTreeMap<String, (u64, u64)>, b: &BTreeMap<String, (u64, u64)>) -> Result<(), String> {
    let differ: Vec<&String> = a.iter().filter(|(n, (_, sz))| b.get(*n).map(|(_, s)| s) != Some(sz)).map(|(n, _)| n).collect();
    if !differ.is_empty() || a.len() != b.len() {
        return Err(format!(
            "{} functions differ in size or are missing, e.g. {}",
            differ.len().max(a.len().abs_diff(b.len())),
            differ.first().map_or("one only the other has", |s| s.as_str())
        ));
    }
    Ok(())
}

/// The binaries of `ids` beside `reference` (the running `hotloops`), each checked to be the
/// same build with the same cargo `features` (a worker of another feature set refuses the
/// pairs). When some are missing, stale or of other features and `cargo` can rebuild them here
/// (the crate's sources are present and `reference` is in a cargo `release` directory), runs
/// `cargo build --release --bins` with `features` first, saying so on stderr; otherwise an
/// error saying what to run.
pub fn ensure(reference: &Path, ids: &[&str], features: &[String]) -> Result<Vec<(&'static Layout, PathBuf)>> {
    let dir = reference.parent().context("the hotloops binary's directory")?;
    let check = || -> Result<Vec<(&'static Layout, PathBuf)>> {
        let mut out = vec![];
        for id in ids {
            let l = layout(id)?;
            let bin = if l.offset.is_none() { reference.to_path_buf() } else { binary(dir, l) };
            if !bin.is_file() {
                bail!("the layout binary {} is missing", bin.display());
            }
            if l.offset.is_some() {
                same_code(reference, &bin)?;
                same_features(&bin, features)?;
            }
            out.push((l, bin));
        }
        Ok(out)
    };
    match check() {
        Ok(v) => Ok(v),
        Err(first) => {
            let root = super::crate_root();
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let build = format!("cargo build --release --bins{}", if features.is_empty() { String::new() } else { format!(" --features {}", features.join(",")) });
            if !root.join("Cargo.toml").is_file() || dir.file_name().is_none_or(|d| d != "release") {
                bail!("{first:#}; build them with `{build}`");
            }
            let mut cmd = Command::new(&cargo);
            cmd.current_dir(&root).args(["build", "--release", "--bins", "--quiet"]);
            if !features.is_empty() {
                cmd.args(["--features", &features.join(",")]);
            }
            crate::say!("hotloops: {first:#}; building the layout binaries (`{build}`: seconds once the library of these features is built, minutes before)");
            // Registered, in a group of its own: on Ctrl-C cargo and its rustc go together.
            let st = super::cleanup::spawn(&mut cmd)
                .and_then(|(mut c, _registered)| c.wait())
                .with_context(|| format!("running {}", Path::new(&cargo).display()))?;
            if !st.success() {
                bail!("{first:#}; `{build}` failed ({st})");
            }
            check().with_context(|| format!("after `{build}`"))
        }
    }
}

/// A process's heap and stack offsets, bytes, drawn from `(seed, layout, process)`: multiples
/// of 16 below 4 KiB, so alignment-sensitive data lands differently in each process.
pub fn process_offsets(seed: u64, layout: usize, process: usize) -> (usize, usize) {
    // splitmix64: a stateless, well-mixed draw.
    let mut z = seed ^ ((layout as u64) << 32) ^ process as u64;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (((z & 0xff) * 16) as usize, (((z >> 8) & 0xff) * 16) as usize)
}

/// The environment variable whose length sets a worker's stack offset.
pub const STACK_PAD_VAR: &str = "HOTLOOPS_STACK_PAD";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shortest_back_edge_is_the_inner_loop() {
        let d = "  1000:\tpush   rbx\n  1010:\tmov    eax,1\n  1020:\tadd    eax,1\n  1028:\tjne    1020 <f+0x20>\n  1030:\tjmp    1010 <f+0x10>\n  1040:\tjmp    2000 <g>\n  1044:\tret\n";
        assert_eq!(shortest_back_edge(d, 0x1000, 0x1050), Some(0x1020));
        assert_eq!(shortest_back_edge("  1000:\tret\n", 0x1000, 0x1001), None);
        // A backward jump out of the function is not its loop.
        assert_eq!(shortest_back_edge("  1010:\tjmp    f00 <h>\n", 0x1000, 0x1020), None);
    }

    #[test]
    fn a_kernel_of_another_size_is_another_build() {
        let a: BTreeMap<String, (u64, u64)> = [("hotloops_x".to_string(), (0x1000, 64)), ("hl_y".to_string(), (0x1040, 32))].into();
        let mut b = a.clone();
        b.insert("hotloops_x".into(), (0x2010, 64));
        assert_eq!(same_functions(&a, &b), Ok(()), "moved, same size: the same code");
        b.insert("hotloops_x".into(), (0x2010, 80));
        assert!(same_functions(&a, &b).unwrap_err().contains("hotloops_x"));
        b.remove("hotloops_x");
        assert!(same_functions(&a, &b).is_err(), "a missing kernel");
    }

    #[test]
    fn a_binary_names_the_features_it_was_built_with() {
        let exe = std::env::current_exe().unwrap();
        let all = [
            ("batch-tids", cfg!(feature = "batch-tids")),
            ("dir-by-value", cfg!(feature = "dir-by-value")),
            ("local-index", cfg!(feature = "local-index")),
            ("read-stream", cfg!(feature = "read-stream")),
            ("static-amroutine", cfg!(feature = "static-amroutine")),
        ];
        let on: Vec<String> = all.iter().filter(|(_, on)| *on).map(|(f, _)| f.to_string()).collect();
        assert_eq!(features_of(&exe).unwrap(), on);
        assert!(same_features(&exe, &on.iter().rev().cloned().collect::<Vec<_>>()).is_ok(), "order does not matter");
        let mut other = on.clone();
        if other.is_empty() { other.push("local-index".into()) } else { other.pop(); }
        let e = same_features(&exe, &other).unwrap_err().to_string();
        assert!(e.contains("was built with features"), "{e}");
        // A file that is no binary of this build says so.
        assert!(features_of(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml").as_path()).is_err());
    }

    #[test]
    fn offsets_are_drawn_per_process_and_aligned() {
        let a = process_offsets(1, 0, 0);
        let b = process_offsets(1, 0, 1);
        let c = process_offsets(1, 1, 0);
        assert!(a != b && a != c, "{a:?} {b:?} {c:?}");
        for (h, s) in [a, b, c] {
            assert!(h % 16 == 0 && s % 16 == 0 && h < 4096 && s < 4096);
        }
        assert_eq!(process_offsets(1, 0, 0), a, "deterministic");
        assert!(layout("at-7").unwrap_err().to_string().contains("valid: natural, at-0"));
    }
}
