// Records the compiler that built hotloops, for the provenance written beside every number;
// builds the C reference kernels (csrc/) once per named compiler configuration (below).
fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let v = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .unwrap_or_else(|| "rustc (unknown)".into());
    println!("cargo:rustc-env=HOTLOOPS_RUSTC_VERSION={}", v.trim());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=rust-toolchain.toml");
    let c_suffixes = ckernels::build();
    layout::build(&c_suffixes);
}

/// Code layouts as a measured dimension (`src/host/layout.rs`): the `hotloops-layout-at-K`
/// binaries are the same objects as `hotloops`, linked with an lld symbol ordering file that
/// puts a K-byte pad (64-byte aligned, never executed) before every kernel and helper, so each
/// starts at K mod 64 (a C translation unit's `.text` moves as one by K) and its loops move with
/// it. Only link order differs: the instructions, digests and counts are the same.
mod layout {
    use std::fmt::Write as _;
    use std::path::{Path, PathBuf};

    /// The offsets (mod 64) of the `hotloops-layout-at-K` binaries (Cargo.toml lists them).
    pub const OFFSETS: [u32; 4] = [0, 16, 32, 48];
    const KERNEL_DIRS: [&str; 3] = ["src/study", "src/pg", "src/ckernels"];

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    /// `fn NAME` for each unmangled function named hotloops_* or hl_* in Rust sources, and
    /// `HL_SYM(NAME)(` declarations in the C header, suffixed for each built configuration.
    fn symbols(root: &Path, c_suffixes: &[String]) -> Vec<String> {
        let mut files = vec![];
        for d in KERNEL_DIRS {
            rust_files(&root.join(d), &mut files);
        }
        files.sort();
        let mut syms = vec![];
        for f in &files {
            let text = std::fs::read_to_string(f).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                let Some(at) = l.find("fn hotloops_").or_else(|| l.find("fn hl_")) else { continue };
                if !lines[i.saturating_sub(3)..i].iter().any(|p| p.contains("no_mangle")) {
                    continue;
                }
                let name: String = l[at + 3..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                syms.push(name);
            }
        }
        let h = std::fs::read_to_string(root.join("csrc/hl_pg.h")).unwrap();
        for part in h.split("HL_SYM(").skip(1) {
            let Some((name, rest)) = part.split_once(')') else { continue };
            if rest.starts_with('(') && (name.starts_with("hotloops_") || name.starts_with("hl_")) {
                for s in c_suffixes {
                    syms.push(format!("{name}__{s}"));
                }
            }
        }
        syms.dedup();
        syms
    }

    pub fn build(c_suffixes: &[String]) {
        let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
        let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
        // Kernels and helpers live in these; a test checks every row's kernel is placed.
        for d in KERNEL_DIRS {
            println!("cargo:rerun-if-changed={d}");
        }
        let syms = symbols(&root, c_suffixes);
        // One pad per (symbol, offset): a section is placed once, so each kernel needs its own.
        let mut asm = String::new();
        for k in OFFSETS {
            let size = if k == 0 { 64 } else { k };
            let mut order = String::new();
            for (i, s) in syms.iter().enumerate() {
                let pad = format!("hotloops_layout_pad_{k}_{i}");
                // "R": SHF_GNU_RETAIN, so --gc-sections keeps the unreferenced pad.
                writeln!(asm, ".section .text.{pad},\"axR\",@progbits\n.p2align 6\n.globl {pad}\n{pad}:\n.skip {size}, 0xcc").unwrap();
                writeln!(order, "{pad}\n{s}").unwrap();
            }
            let file = out.join(format!("layout-at-{k}.order"));
            std::fs::write(&file, order).unwrap();
            let bin = format!("hotloops-layout-at-{k}");
            println!("cargo:rustc-link-arg-bin={bin}=-Wl,--symbol-ordering-file={}", file.display());
            println!("cargo:rustc-link-arg-bin={bin}=-Wl,--no-warn-symbol-ordering");
        }
        // The build's cargo features, in a retained section of every binary: a command that
        // starts workers in a layout binary reads them first, and rebuilds a binary built
        // with other features (src/host/layout.rs `features_of`).
        let mut features: Vec<String> = std::env::vars()
            .filter_map(|(k, _)| k.strip_prefix("CARGO_FEATURE_").map(|f| f.to_lowercase().replace('_', "-")))
            .collect();
        features.sort();
        writeln!(asm, ".section .hotloops_features,\"aR\",@progbits\n.ascii \"[{}]\"", features.join(",")).unwrap();
        asm.push_str(".text\n");
        std::fs::write(out.join("layout_pads.s"), asm).unwrap();
        std::fs::write(out.join("layout_symbols.txt"), syms.join("\n")).unwrap();
    }
}

/// The C reference kernels: every `csrc/*.c` compiled with the `cc` crate under each
/// configuration, with cc's own defaults off and the flags given verbatim, into one static
/// library per configuration whose symbols carry the configuration's suffix
/// (`-DHL_CONFIG=gcc12_pg`, pasted by `HL_SYM` in csrc/hl_pg.h). Also writes each
/// translation unit's `-S -masm=intel` output with the same arguments (the asm snapshots) and
/// a Rust table of the configurations (`src/ckernels/mod.rs` includes it).
mod ckernels {
    use std::fmt::Write as _;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    /// Debian PostgreSQL 15's `pg_config --cflags` (gcc 12.2, bookworm), verbatim.
    const DEBIAN_PG15_CFLAGS: &str = "-Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security -fno-omit-frame-pointer";
    /// Debian PostgreSQL 15's `pg_config --cppflags` (the part that reaches these files).
    const DEBIAN_PG15_CPPFLAGS: &str = "-D_FORTIFY_SOURCE=2 -D_GNU_SOURCE";
    /// Debian arm64 PostgreSQL 15's `pg_config --cflags` (15.20-0+deb12u1, gcc 12.2, bookworm),
    /// verbatim: the arm64 `pg_config` of `postgresql-client-15_15.20-0+deb12u1_arm64.deb` run
    /// under qemu-aarch64 (csrc/README.md says how). Against amd64's: `-moutline-atomics`
    /// (configure adds it where gcc takes it, i.e. on aarch64) and no `-fno-omit-frame-pointer`
    /// (Debian's amd64 build passes it in CFLAGS, `pg_config --configure` shows; arm64's does not).
    const DEBIAN_PG15_ARM64_CFLAGS: &str = "-Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wendif-labels -Wmissing-format-attribute -Wimplicit-fallthrough=3 -Wcast-function-type -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -Wno-format-truncation -Wno-stringop-truncation -moutline-atomics -g -g -O2 -fstack-protector-strong -Wformat -Werror=format-security";
    /// PostgreSQL's own flags on gcc (configure.ac, reference postgres-hot-loops.md 6.1):
    /// `-O2`, the warnings configure probes for (gcc 12 lacks `-Wmissing-variable-declarations`,
    /// so configure leaves it out), the three functional flags, no `-g` (no --enable-debug);
    /// `-D_GNU_SOURCE` from src/template/linux. No Debian hardening.
    const UPSTREAM_CFLAGS: &str = "-Wall -Wmissing-prototypes -Wpointer-arith -Wdeclaration-after-statement -Werror=vla -Wmissing-format-attribute -Wimplicit-fallthrough=5 -Wcast-function-type -Wshadow=compatible-local -Wformat-security -fno-strict-aliasing -fwrapv -fexcess-precision=standard -O2";
    const UPSTREAM_CPPFLAGS: &str = "-D_GNU_SOURCE";

    struct Config {
        name: &'static str,
        suffix: &'static str,
        /// Compiler executables to try, first found wins.
        compilers: &'static [&'static str],
        /// Debian package that provides the compiler.
        package: &'static str,
        required: bool,
        flags: String,
        /// What the configuration targets: the host (linked into hotloops) or AArch64 (a cross
        /// build: asm snapshots and an emulated test program, never linked).
        target: Target,
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Target {
        Host,
        Aarch64,
    }

    /// The GNU triple of the cross configuration's compiler and programs.
    const AARCH64_TRIPLE: &str = "aarch64-linux-gnu";

    fn configs() -> Vec<Config> {
        let pg = format!("{DEBIAN_PG15_CFLAGS} {DEBIAN_PG15_CPPFLAGS}");
        vec![
            Config { name: "gcc12-pg", suffix: "gcc12_pg", compilers: &["gcc-12", "gcc"], package: "gcc-12", required: true, flags: pg.clone(), target: Target::Host },
            Config {
                name: "gcc12-upstream",
                suffix: "gcc12_upstream",
                compilers: &["gcc-12", "gcc"],
                package: "gcc-12",
                required: true,
                flags: format!("{UPSTREAM_CFLAGS} {UPSTREAM_CPPFLAGS}"),
                target: Target::Host,
            },
            Config {
                name: "gcc12-strict",
                suffix: "gcc12_strict",
                compilers: &["gcc-12", "gcc"],
                package: "gcc-12",
                required: true,
                flags: pg.replace("-fno-strict-aliasing", "-fstrict-aliasing"),
                target: Target::Host,
            },
            Config {
                name: "clang19-pg",
                suffix: "clang19_pg",
                compilers: &["clang-19"],
                package: "clang-19",
                required: false,
                // clang 19 rejects gcc's `-Wimplicit-fallthrough=3` and has no
                // `-Wstringop-truncation`: PostgreSQL's configure probes each warning and drops
                // what the compiler lacks, so do we. DWARF 4: valgrind 3.19 cannot read clang
                // 19's default DWARF 5.
                flags: pg
                    .replace("-Wimplicit-fallthrough=3", "-Wimplicit-fallthrough")
                    .replace(" -Wno-stringop-truncation", "")
                    .replace("-g -g", "-gdwarf-4"),
                target: Target::Host,
            },
            Config {
                name: "gcc12-pg-arm64",
                suffix: "gcc12_pg_arm64",
                compilers: &["aarch64-linux-gnu-gcc-12", "aarch64-linux-gnu-gcc"],
                package: "gcc-aarch64-linux-gnu",
                required: false,
                // The same cppflags: arm64's `pg_config --cppflags` is amd64's.
                flags: format!("{DEBIAN_PG15_ARM64_CFLAGS} {DEBIAN_PG15_CPPFLAGS}"),
                target: Target::Aarch64,
            },
        ]
    }

    /// Environment variables through which cc would append flags to every compile.
    fn env_flag_vars() -> Vec<String> {
        let target = std::env::var("TARGET").unwrap_or_default();
        let mut v = vec!["CFLAGS".to_string(), "TARGET_CFLAGS".into(), "HOST_CFLAGS".into(), "CRATE_CC_NO_DEFAULTS".into()];
        v.push(format!("CFLAGS_{target}"));
        v.push(format!("CFLAGS_{}", target.replace('-', "_")));
        v
    }

    fn find(compilers: &[&str]) -> Option<(PathBuf, String)> {
        for c in compilers {
            let Ok(o) = Command::new(c).arg("--version").output() else { continue };
            if !o.status.success() {
                continue;
            }
            let first = String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").trim().to_string();
            let path = std::env::var_os("PATH")
                .and_then(|p| std::env::split_paths(&p).map(|d| d.join(c)).find(|f| f.is_file()))
                .unwrap_or_else(|| PathBuf::from(c));
            return Some((path, first));
        }
        None
    }

    fn esc(s: &str) -> String {
        format!("{s:?}")
    }

    /// Emit the triggers that make build.rs rerun when a compiler it probes appears or
    /// disappears: `PATH` itself, and every absolute directory on it. Cargo takes a directory's
    /// newest mtime over the directory and everything in it, and adding or removing a file (dpkg
    /// installing `clang-19` with the package's old mtime included) updates the directory's own
    /// mtime; a missing file named in `rerun-if-changed` would instead rerun every build. Any
    /// other install into those directories reruns it too (cheap: the C kernels only).
    fn watch_compiler_dirs() {
        println!("cargo:rerun-if-env-changed=PATH");
        let Some(path) = std::env::var_os("PATH") else { return };
        let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
        let mut seen = std::collections::BTreeSet::new();
        for d in std::env::split_paths(&path) {
            // Relative entries depend on the cwd; directories in this crate change as it builds.
            if !d.is_absolute() || !d.is_dir() || d.starts_with(&manifest) || !seen.insert(d.clone()) {
                continue;
            }
            println!("cargo:rerun-if-changed={}", d.display());
        }
    }

    /// Returns the suffixes of the configurations linked into hotloops.
    pub fn build() -> Vec<String> {
        let mut built_suffixes = vec![];
        let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
        let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
        let csrc = root.join("csrc");
        println!("cargo:rerun-if-changed=csrc");
        watch_compiler_dirs();
        // Environment CFLAGS never leak in silently: cc would append them to every compile.
        for var in env_flag_vars() {
            println!("cargo:rerun-if-env-changed={var}");
            if let Some(val) = std::env::var_os(&var) {
                println!(
                    "cargo:warning=hotloops: ignoring {var}={} for the C kernels: their flags are the named configurations' (build.rs)",
                    val.to_string_lossy()
                );
                // SAFETY: build scripts are single-threaded; nothing else reads the environment now.
                unsafe { std::env::remove_var(&var) };
            }
        }
        let mut sources: Vec<PathBuf> = std::fs::read_dir(&csrc)
            .expect("csrc/ is missing")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        sources.sort();
        // The emulated test program's driver (csrc/emu/): built beside the kernels, never into
        // the hotloops binary (it has a main and C versions of the Rust callees).
        let driver = csrc.join("emu").join("hl_emu.c");
        for dir in [csrc.clone(), csrc.join("emu")] {
            for f in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                if f.path().extension().is_some_and(|x| x == "c" || x == "h") {
                    println!("cargo:rerun-if-changed={}", f.path().display());
                }
            }
        }
        let mut table = String::from("/// The C kernels' compiler configurations linked into hotloops (generated by build.rs).\npub static CONFIGS: &[CConfig] = &[\n");
        let mut cross = String::from(
            "/// Cross configurations (generated by build.rs): built for another ISA, never linked; their asm is\n/// snapshotted and modelled, their emulated test program run under qemu.\npub static CROSS_CONFIGS: &[CConfig] = &[\n",
        );
        let mut emu = String::from(
            "/// The emulated test programs build.rs built (csrc/emu/hl_emu.c with every csrc/*.c): (configuration, executable, GNU triple).\npub static EMU_PROGRAMS: &[(&str, &str, &str)] = &[\n",
        );
        let host_triple = std::env::var("TARGET").unwrap_or_default();
        for c in configs() {
            println!("cargo::rustc-check-cfg=cfg(hlc_{})", c.suffix);
            let (compiler, version, built, mut note, args) = match find(c.compilers) {
                None if c.required => panic!(
                    "hotloops: configuration {} needs {} (apt-get install {}); it is required",
                    c.name,
                    c.compilers.join(" or "),
                    c.package
                ),
                None => {
                    let note = format!("skipped: {} not found (apt-get install {})", c.compilers[0], c.package);
                    println!("cargo:warning=hotloops: C kernel configuration {} {note}", c.name);
                    (String::new(), String::new(), false, note, String::new())
                }
                Some((path, version)) => {
                    let mut note = String::new();
                    if c.name.starts_with("gcc12") && !version.contains(" 12.") {
                        note = format!("built with `{version}`, not gcc 12: figures are not gcc 12's");
                        println!("cargo:warning=hotloops: {} {note}", c.name);
                    }
                    let args = compile(&c, &path, &sources, &csrc, &out);
                    (path.display().to_string(), version, true, note, args)
                }
            };
            if built && c.target == Target::Host {
                built_suffixes.push(c.suffix.to_string());
                println!("cargo:rustc-cfg=hlc_{}", c.suffix);
            }
            // The emulated test program: under the cross configuration, and natively under the
            // canonical one (the same driver on the host, so the driver itself is checked where
            // no cross compiler or qemu is installed).
            if built && (c.target == Target::Aarch64 || c.name == "gcc12-pg") {
                let (triple, exe) = match c.target {
                    Target::Aarch64 => (AARCH64_TRIPLE.to_string(), out.join("emu").join(format!("hl-emu-{}", c.name))),
                    Target::Host => (host_triple.clone(), out.join("emu").join(format!("hl-emu-{}", c.name))),
                };
                match emu_program(&c, Path::new(&compiler), &sources, &driver, &csrc, &exe) {
                    Ok(()) => writeln!(emu, "    ({}, {}, {}),", esc(c.name), esc(&exe.display().to_string()), esc(&triple)).unwrap(),
                    Err(e) => {
                        let why = format!("emulated test program not built: {e}");
                        println!("cargo:warning=hotloops: {} {why}", c.name);
                        note = if note.is_empty() { why } else { format!("{note}; {why}") };
                    }
                }
            }
            let row = format!(
                "    CConfig {{ name: {}, suffix: {}, compiler: {}, version: {}, flags: {}, effective_args: {}, built: {built}, note: {}, target: {} }},\n",
                esc(c.name),
                esc(c.suffix),
                esc(&compiler),
                esc(&version),
                esc(&c.flags),
                esc(&args),
                esc(&note),
                esc(match c.target {
                    Target::Host => &host_triple,
                    Target::Aarch64 => AARCH64_TRIPLE,
                })
            );
            match c.target {
                Target::Host => table.push_str(&row),
                Target::Aarch64 => cross.push_str(&row),
            }
        }
        table.push_str("];\n");
        cross.push_str("];\n");
        emu.push_str("];\n");
        table.push_str(&cross);
        table.push_str(&emu);
        writeln!(table, "/// Where build.rs wrote each configuration's `-S` output: `<dir>/<config>/<file>.s`.\npub const ASM_DIR: &str = {};", esc(&out.join("asm").display().to_string())).unwrap();
        std::fs::write(out.join("ckernels_configs.rs"), table).unwrap();
        built_suffixes
    }

    /// The cc build of configuration `c`: cc's defaults off, the flags verbatim.
    fn cc_build(c: &Config, compiler: &Path, csrc: &Path) -> cc::Build {
        let mut b = cc::Build::new();
        b.compiler(compiler)
            // No -O, -g, -fPIC, -ffunction-sections, -m64 from cc: the flags are ours.
            .no_default_flags(true)
            // cc adds -Wextra unless told not to; it always adds -Wall (already in our flags:
            // a repeat changes nothing), since warnings(false) would mean -w.
            .extra_warnings(false)
            .inherit_rustflags(false)
            .include(csrc)
            .define("HL_CONFIG", c.suffix);
        for f in c.flags.split_whitespace() {
            b.flag(f);
        }
        b
    }

    /// Compile every source under `c`: a host configuration into `libhlc_<suffix>.a` (linked),
    /// a cross one not at all (nothing of it can link here); then write each translation unit's
    /// `-S` output with the same arguments (`-masm=intel` on x86-64, gcc's own syntax on
    /// AArch64). Returns the arguments cc passes the compiler (before `-c -o obj src`).
    fn compile(c: &Config, compiler: &Path, sources: &[PathBuf], csrc: &Path, out: &Path) -> String {
        let mut b = cc_build(c, compiler, csrc);
        for s in sources {
            b.file(s);
        }
        let tool = b.get_compiler();
        let args: Vec<String> = tool.args().iter().map(|a| a.to_string_lossy().into_owned()).collect();
        if c.target == Target::Host {
            b.compile(&format!("hlc_{}", c.suffix));
        }
        let dir = out.join("asm").join(c.name);
        std::fs::create_dir_all(&dir).unwrap();
        for s in sources {
            let stem = s.file_stem().unwrap().to_string_lossy();
            let mut cmd = tool.to_command();
            cmd.arg("-S");
            if c.target == Target::Host {
                cmd.arg("-masm=intel");
            }
            let o = cmd.arg("-o").arg(dir.join(format!("{stem}.s"))).arg(s).output().expect("running the C compiler for -S");
            if !o.status.success() {
                panic!("hotloops: {} -S of {} failed:\n{}", c.name, s.display(), String::from_utf8_lossy(&o.stderr));
            }
        }
        args.join(" ")
    }

    /// The emulated test program of configuration `c` (csrc/emu/hl_emu.c and every kernel
    /// source, with the configuration's arguments; static for AArch64, so that qemu-aarch64
    /// needs no sysroot). An error names what to install.
    fn emu_program(c: &Config, compiler: &Path, sources: &[PathBuf], driver: &Path, csrc: &Path, exe: &Path) -> Result<(), String> {
        if !driver.is_file() {
            return Err(format!("{} is missing", driver.display()));
        }
        std::fs::create_dir_all(exe.parent().unwrap()).map_err(|e| e.to_string())?;
        let tool = cc_build(c, compiler, csrc).get_compiler();
        let mut cmd = tool.to_command();
        if c.target == Target::Aarch64 {
            cmd.arg("-static");
        }
        let o = cmd.arg("-o").arg(exe).args(sources).arg(driver).output().map_err(|e| format!("running {}: {e}", compiler.display()))?;
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            let hint = if c.target == Target::Aarch64 && err.contains("cannot find -lc") { " (apt-get install libc6-dev-arm64-cross)" } else { "" };
            return Err(format!("{} failed{hint}: {}", compiler.display(), err.trim()));
        }
        // Its warnings are the kernels' warnings too: never hidden.
        for l in String::from_utf8_lossy(&o.stderr).lines().filter(|l| !l.trim().is_empty()) {
            println!("cargo:warning=hotloops: {} emulated test program: {l}", c.name);
        }
        Ok(())
    }
}
