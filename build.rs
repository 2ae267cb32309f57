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
    ckernels::build();
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
    }

    fn configs() -> Vec<Config> {
        let pg = format!("{DEBIAN_PG15_CFLAGS} {DEBIAN_PG15_CPPFLAGS}");
        vec![
            Config { name: "gcc12-pg", suffix: "gcc12_pg", compilers: &["gcc-12", "gcc"], package: "gcc-12", required: true, flags: pg.clone() },
            Config {
                name: "gcc12-upstream",
                suffix: "gcc12_upstream",
                compilers: &["gcc-12", "gcc"],
                package: "gcc-12",
                required: true,
                flags: format!("{UPSTREAM_CFLAGS} {UPSTREAM_CPPFLAGS}"),
            },
            Config {
                name: "gcc12-strict",
                suffix: "gcc12_strict",
                compilers: &["gcc-12", "gcc"],
                package: "gcc-12",
                required: true,
                flags: pg.replace("-fno-strict-aliasing", "-fstrict-aliasing"),
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

    pub fn build() {
        let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
        let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
        let csrc = root.join("csrc");
        println!("cargo:rerun-if-changed=csrc");
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
        for f in std::fs::read_dir(&csrc).unwrap().flatten() {
            if f.path().extension().is_some_and(|x| x == "c" || x == "h") {
                println!("cargo:rerun-if-changed={}", f.path().display());
            }
        }
        let mut table = String::from("/// The C kernels' compiler configurations (generated by build.rs).\npub static CONFIGS: &[CConfig] = &[\n");
        for c in configs() {
            println!("cargo::rustc-check-cfg=cfg(hlc_{})", c.suffix);
            let (compiler, version, built, note, args) = match find(c.compilers) {
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
            if built {
                println!("cargo:rustc-cfg=hlc_{}", c.suffix);
            }
            writeln!(
                table,
                "    CConfig {{ name: {}, suffix: {}, compiler: {}, version: {}, flags: {}, effective_args: {}, built: {built}, note: {} }},",
                esc(c.name),
                esc(c.suffix),
                esc(&compiler),
                esc(&version),
                esc(&c.flags),
                esc(&args),
                esc(&note)
            )
            .unwrap();
        }
        table.push_str("];\n");
        writeln!(table, "/// Where build.rs wrote each configuration's `-S -masm=intel` output: `<dir>/<config>/<file>.s`.\npub const ASM_DIR: &str = {};", esc(&out.join("asm").display().to_string())).unwrap();
        std::fs::write(out.join("ckernels_configs.rs"), table).unwrap();
    }

    /// Compile every source under `c` into `libhlc_<suffix>.a` and write its asm; returns the
    /// arguments cc passes the compiler (before `-c -o obj src`).
    fn compile(c: &Config, compiler: &Path, sources: &[PathBuf], csrc: &Path, out: &Path) -> String {
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
        for s in sources {
            b.file(s);
        }
        let tool = b.get_compiler();
        let args: Vec<String> = tool.args().iter().map(|a| a.to_string_lossy().into_owned()).collect();
        b.compile(&format!("hlc_{}", c.suffix));
        let dir = out.join("asm").join(c.name);
        std::fs::create_dir_all(&dir).unwrap();
        for s in sources {
            let stem = s.file_stem().unwrap().to_string_lossy();
            let o = tool
                .to_command()
                .args(["-S", "-masm=intel", "-o"])
                .arg(dir.join(format!("{stem}.s")))
                .arg(s)
                .output()
                .expect("running the C compiler for -S");
            if !o.status.success() {
                panic!("hotloops: {} -S of {} failed:\n{}", c.name, s.display(), String::from_utf8_lossy(&o.stderr));
            }
        }
        args.join(" ")
    }
}
