//! The one-way layers written at the top of `src/lib.rs`: host -> pg -> ckernels -> study -> measure | asm
//! -> model | pgserver -> report (-> main.rs). A module may name only modules of lower layers (`crate::x` paths,
//! `use` or inline, outside comments); measure and asm share a layer and may not name each
//! other. This test reads the sources, so an upward import fails it whether or not it is used.

use std::path::Path;

/// The layer of each top-level module; equal layers may not import each other.
const LAYERS: &[(&str, u32)] =
    &[("host", 0), ("pg", 1), ("ckernels", 2), ("study", 3), ("measure", 4), ("asm", 4), ("model", 5), ("pgserver", 5), ("report", 6)];

fn layer(m: &str) -> Option<u32> {
    LAYERS.iter().find(|(n, _)| *n == m).map(|(_, l)| *l)
}

/// The code of `text` without comments (line comments, doc comments, block comments) and
/// without string literals, so a path in a doc or a message is not an import.
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i + 1 < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

/// Every (module, named module) edge of one source file of `module`.
fn edges(module: &str, text: &str) -> Vec<String> {
    let code = code_only(text);
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue; // `hotloops_crate::` or similar, not a path root
        }
        let rest = &code[at + "crate::".len()..];
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if layer(&name).is_some() && name != module {
            out.push(name);
        }
    }
    // `use crate::{a, b}` groups.
    for (at, _) in code.match_indices("crate::{") {
        let rest = &code[at + "crate::{".len()..];
        let group = &rest[..rest.find('}').unwrap_or(rest.len())];
        for part in group.split(',') {
            let name: String = part.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if layer(&name).is_some() && name != module {
                out.push(name);
            }
        }
    }
    out
}

/// The violations in `files` ((module, path, text)): an import of a module of the same or a
/// higher layer.
fn violations(files: &[(String, String, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (module, path, text) in files {
        let Some(from) = layer(module) else { continue };
        for to in edges(module, text) {
            let l = layer(&to).unwrap();
            if l >= from {
                bad.push(format!("{path}: `{module}` (layer {from}) imports `crate::{to}` (layer {l})"));
            }
        }
    }
    bad.sort();
    bad.dedup();
    bad
}

fn read_tree(dir: &Path, module: &str, out: &mut Vec<(String, String, String)>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            read_tree(&p, module, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push((module.to_string(), p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
        }
    }
}

fn crate_sources() -> Vec<(String, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for (m, _) in LAYERS {
        let dir = src.join(m);
        if dir.is_dir() {
            read_tree(&dir, m, &mut files);
        }
        let single = src.join(format!("{m}.rs"));
        if single.is_file() {
            files.push((m.to_string(), single.display().to_string(), std::fs::read_to_string(&single).unwrap()));
        }
    }
    files
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for line in code_only(&lib).lines() {
        if let Some(m) = line.trim().strip_prefix("pub mod ").and_then(|m| m.strip_suffix(';')) {
            assert!(layer(m).is_some(), "src/lib.rs declares `{m}`, which has no layer here or in lib.rs's list");
            assert!(lib.contains(&format!("[`{m}`]")), "lib.rs's layer list does not name `{m}`");
        }
    }
}

#[test]
fn imports_go_down_the_layers_only() {
    let files = crate_sources();
    assert!(files.len() > 20, "read only {} source files", files.len());
    let bad = violations(&files);
    assert!(bad.is_empty(), "upward or sideways imports (see the layers at the top of src/lib.rs):\n{}", bad.join("\n"));
}

/// The checker itself can fail: an upward import, a sideways one, a grouped one; and a path in
/// a comment or a string is not an import.
#[test]
fn the_checker_catches_upward_imports() {
    let f = |m: &str, t: &str| (m.to_string(), format!("src/{m}/x.rs"), t.to_string());
    assert_eq!(violations(&[f("pg", "use crate::report::Row;\n")]).len(), 1);
    assert_eq!(violations(&[f("measure", "fn f() { crate::asm::generate(\"x\"); }\n")]).len(), 1);
    assert_eq!(violations(&[f("host", "use crate::{pg, study::Size};\n")]).len(), 2);
    assert!(violations(&[f("pg", "/// see [`crate::report`]\n// crate::study\nlet s = \"crate::report\";\nuse crate::host::crate_root;\n")]).is_empty());
    assert!(violations(&[f("report", "use crate::study::Size; use crate::measure::stats;\n")]).is_empty());
    // A cycle between two modules needs an edge that is not downward: caught above.
    assert_eq!(violations(&[f("study", "use crate::measure::wallclock;\n"), f("measure", "use crate::study::Case;\n")]).len(), 1);
}

/// `code` without the blocks under `#[cfg(test)]` (test modules may print as they like).
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let Some(open) = after.find('{') else { return out };
        let mut depth = 0;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Uses of std's printing macros, which panic on a closed stream, in `text` (outside comments,
/// strings and tests): (line, macro).
fn print_macros(text: &str) -> Vec<(usize, &'static str)> {
    let code = without_tests(&code_only(text));
    let mut found = Vec::new();
    for (n, line) in code.lines().enumerate() {
        for m in ["println!", "print!", "eprintln!", "eprint!", "dbg!"] {
            for (at, _) in line.match_indices(m) {
                if !line[..at].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    found.push((n + 1, m));
                }
            }
        }
    }
    found
}

/// Every message and result goes through the one printing helper of `src/host/mod.rs` (`say!`,
/// `out!`, `outln!`), which treats a closed stdout or stderr the same way on every command:
/// never `println!`/`eprintln!`, whose panic on a closed stream once ended `hotloops pg` with
/// a quiet 0 before it did anything.
#[test]
fn every_command_prints_through_the_one_helper() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = crate_sources();
    for f in ["main.rs", "lib.rs"] {
        files.push((String::new(), src.join(f).display().to_string(), std::fs::read_to_string(src.join(f)).unwrap()));
    }
    let bad: Vec<String> = files.iter().flat_map(|(_, path, text)| print_macros(text).into_iter().map(move |(n, m)| format!("{path}:{n}: {m}"))).collect();
    assert!(bad.is_empty(), "print through hotloops::say!/out!/outln! (src/host/mod.rs), not:\n{}", bad.join("\n"));
    // The checker itself: a macro in code is caught; in a comment, a string or a test it is not.
    assert_eq!(print_macros("fn f() { eprintln!(\"x\"); print!(\"y\"); }\n").len(), 2);
    assert!(print_macros("// println!\nfn f() { say!(\"println!\"); }\n#[cfg(test)]\nmod t { fn g() { println!(); } }\n").is_empty());
}
