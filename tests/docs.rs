//! Every `hotloops` command that README.md, the guides in docs/ and analysis/README.md show
//! parses as written (run with HOTLOOPS_PARSE_ONLY, which stops after parsing), and every
//! `HOTLOOPS_*` environment variable the code reads is documented (docs/environment.md).

use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The command lines a Markdown text shows: lines of fenced blocks and inline code spans that
/// start with `hotloops`, `target/release/hotloops` or `cargo run --release [--features F] --`,
/// as argument lists.
fn commands(md: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut prose = String::new();
    let mut fenced = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            // A shell comment ends the command.
            if let Some(args) = args_of(line.split(" #").next().unwrap_or("")) {
                out.push(args);
            }
        } else {
            prose.push_str(line);
            prose.push(' ');
        }
    }
    for (i, span) in prose.split('`').enumerate() {
        if i % 2 == 1
            && let Some(args) = args_of(span)
        {
            out.push(args);
        }
    }
    out
}

fn args_of(cmd: &str) -> Option<Vec<String>> {
    // A shell redirect or pipe ends the command.
    let words: Vec<&str> = cmd.split_whitespace().take_while(|w| !matches!(*w, ">" | ">>" | "|" | "2>&1")).collect();
    let start = match words.as_slice() {
        ["hotloops" | "target/release/hotloops", ..] => 1,
        ["cargo", "run", "--release", "--", ..] => 4,
        ["cargo", "run", "--release", "--features", _, "--", ..] => 6,
        _ => return None,
    };
    // Placeholders: `<id>` is a variant id, `[--case C]` optional, `...` more of the same.
    let mut args = Vec::new();
    let mut optional = false;
    for w in &words[start..] {
        if w.starts_with('[') {
            optional = !w.ends_with(']');
            continue;
        }
        if optional {
            optional = !w.ends_with(']');
            continue;
        }
        match *w {
            "..." => {}
            "<id>" => args.push("local-index/store-each".to_string()),
            w if w.starts_with('<') => args.push("placeholder".to_string()),
            w => args.push(w.trim_end_matches(['.', ',', ';', ')']).to_string()),
        }
    }
    // A bare `hotloops` names the binary; it is not a command line.
    (!args.is_empty()).then_some(args)
}

fn parses(args: &[String]) -> Result<(), String> {
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).env("HOTLOOPS_PARSE_ONLY", "1").output().unwrap();
    if o.status.success() { Ok(()) } else { Err(format!("hotloops {}: {}", args.join(" "), String::from_utf8_lossy(&o.stderr))) }
}

/// The Markdown files whose commands must work: README.md, analysis/README.md, docs/*.md.
fn documents() -> Vec<String> {
    let mut v = vec!["README.md".to_string(), "analysis/README.md".to_string()];
    let mut guides: Vec<String> = std::fs::read_dir(format!("{ROOT}/docs"))
        .map(|d| d.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".md")).map(|n| format!("docs/{n}")).collect())
        .unwrap_or_default();
    guides.sort();
    v.extend(guides);
    v
}

#[test]
fn every_documented_command_parses() {
    // The check itself catches a command missing its required flags, and a bad name.
    assert!(parses(&["paired".into(), "tid-batch/per-tid".into(), "tid-batch/runs".into()]).is_err());
    assert!(parses(&["report".into(), "--no-such-flag".into()]).is_err());
    let mut n = 0;
    let mut bad = Vec::new();
    let docs = documents();
    assert!(docs.len() > 5, "the guides in docs/ are read: {docs:?}");
    for f in &docs {
        let md = std::fs::read_to_string(format!("{ROOT}/{f}")).unwrap();
        for args in commands(&md) {
            n += 1;
            if let Err(e) = parses(&args) {
                bad.push(format!("{f}: {e}"));
            }
        }
    }
    assert!(n >= 20, "only {n} commands found in the READMEs: is the extraction broken?");
    assert!(bad.is_empty(), "{} documented commands do not parse:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn the_extraction_reads_blocks_spans_and_placeholders() {
    let md = "x `hotloops instructions <id> [--case C]` and `hotloops paired a b\n--case c` or `hotloops model x --json > m.json`\n```sh\ncargo run --release -- report --quick  # a comment\nls\n```\n";
    assert_eq!(
        commands(md),
        vec![
            vec!["report".to_string(), "--quick".into()],
            vec!["instructions".to_string(), "local-index/store-each".into()],
            vec!["paired".to_string(), "a".into(), "b".into(), "--case".into(), "c".into()],
            vec!["model".to_string(), "x".into(), "--json".into()],
        ]
    );
}

#[test]
fn every_hotloops_environment_variable_is_documented() {
    let readme: String = documents().iter().map(|f| std::fs::read_to_string(format!("{ROOT}/{f}")).unwrap()).collect();
    let mut names = std::collections::BTreeSet::new();
    let mut stack = vec![format!("{ROOT}/src"), format!("{ROOT}/benches"), format!("{ROOT}/build.rs"), format!("{ROOT}/scripts")];
    while let Some(p) = stack.pop() {
        let path = std::path::Path::new(&p);
        if path.is_dir() {
            for e in std::fs::read_dir(path).unwrap() {
                stack.push(e.unwrap().path().display().to_string());
            }
            continue;
        }
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for (i, _) in text.match_indices("HOTLOOPS_") {
            let name: String = text[i..].chars().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_').collect();
            if name.len() > "HOTLOOPS_".len() {
                names.insert(name);
            }
        }
    }
    assert!(names.contains("HOTLOOPS_DATA_DIR"), "the scan finds the variables: {names:?}");
    let missing: Vec<&String> = names.iter().filter(|n| !readme.contains(n.as_str())).collect();
    assert!(missing.is_empty(), "neither README.md nor docs/ documents {missing:?} (docs/environment.md lists them)");
}
