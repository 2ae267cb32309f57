//! Seed cards (`hotloops seed`): the conclusion rule on synthetic views that agree, disagree,
//! are unresolved or missing; a card never judges a view it lacks; the command's errors.
//! Expected conclusions follow from the rule printed on every card (`seeds::RULE`), not from a
//! run of the implementation.

use hotloops::report::seeds::{self, Dir, Figure, Line, View, conclude};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn line(view: View, label: &str, ratio: f64, ci: Option<(f64, f64)>, verdict: Option<Dir>) -> Line {
    Line { view, label: label.into(), pair: "a -> b".into(), figure: Ok(Figure { ratio, ci, verdict, note: String::new() }), source: "f.json".into(), command: "cmd".into() }
}

fn gone(view: View, label: &str) -> Line {
    Line { view, label: label.into(), pair: "a -> b".into(), figure: Err("not there".into()), source: String::new(), command: "hotloops x".into() }
}

const CLAIM: f64 = 1.0 / 1.0224; // 2.24% faster

fn model(d: Dir) -> Line {
    line(View::Model, "model (Rust)", 0.97, Some((0.95, 0.99)), Some(d))
}
fn server(v: &str, d: Dir) -> Line {
    line(View::Server, &format!("server {v} warm"), 0.98, Some((0.97, 0.99)), Some(d))
}
fn stat(label: &str, ratio: f64) -> Line {
    line(View::StaticHost, &format!("static {label}"), ratio, None, Some(Dir::NotResolved))
}

#[test]
fn model_and_server_agree_reproduced() {
    let c = conclude(CLAIM, &[model(Dir::Faster), server("15.20", Dir::Faster), server("18.6", Dir::NotResolved), stat("znver4", 0.95)]);
    assert!(c.starts_with("Reproduced in the server (15.20 warm, 1 of 2 server lines)"), "{c}");
    // 5% predicted against a 2.19% claim: the model allows it.
    assert!(c.contains("the static model allows the claim's size") && !c.contains("bounds"), "{c}");
    assert!(!c.contains("not judged"), "{c}");
}

#[test]
fn server_unresolved_model_resolved_is_model_only() {
    let c = conclude(CLAIM, &[model(Dir::Faster), server("15.20", Dir::NotResolved), stat("znver4", 0.99)]);
    assert!(c.starts_with("Model only: the server does not resolve it"), "{c}");
    // 1% predicted against 2.19% claimed.
    assert!(c.contains("the static model bounds it below the claim (znver4)"), "{c}");
}

#[test]
fn neither_resolves_is_not_resolved_never_not_reproduced() {
    let c = conclude(CLAIM, &[model(Dir::NotResolved), server("17.11", Dir::NotResolved), stat("znver3", 0.99)]);
    assert!(c.starts_with("Not resolved: neither the Rust model") && !c.contains("not reproduced"), "{c}");
}

#[test]
fn a_server_in_the_other_direction_contradicts() {
    let c = conclude(CLAIM, &[model(Dir::Faster), server("15.20", Dir::Slower), stat("znver4", 0.9)]);
    assert!(c.starts_with("Contradicted by the server (the patched side is slower)"), "{c}");
    // A slower claim: the direction flips with it.
    let c = conclude(1.05, &[model(Dir::Slower), server("15.20", Dir::Slower), stat("znver4", 1.10)]);
    assert!(c.starts_with("Reproduced in the server"), "{c}");
}

#[test]
fn layout_sensitive_views_are_said() {
    let c = conclude(CLAIM, &[model(Dir::Faster), line(View::C, "C gcc12-pg", 0.95, Some((0.9, 0.99)), Some(Dir::LayoutSensitive)), server("15.20", Dir::Faster), stat("znver4", 0.95)]);
    assert!(c.contains("layout-sensitive"), "{c}");
    let c = conclude(CLAIM, &[model(Dir::Faster), line(View::C, "C gcc12-pg", 0.95, Some((0.9, 0.99)), Some(Dir::Faster)), server("15.20", Dir::Faster), stat("znver4", 0.95)]);
    assert!(!c.contains("layout"), "{c}");
}

#[test]
fn missing_views_are_named_never_judged() {
    // No server line at all, or only a missing one: nothing about the server is concluded.
    for servers in [vec![], vec![gone(View::Server, "server")]] {
        let mut ls = vec![model(Dir::Faster), stat("znver4", 0.99)];
        ls.extend(servers);
        let c = conclude(CLAIM, &ls);
        for claim in ["Reproduced", "reproduced", "Model only", "Contradicted", "server does not"] {
            assert!(!c.contains(claim), "{claim:?} needs the server view: {c}");
        }
        assert!(c.contains("not judged: the server (missing)"), "{c}");
        assert!(c.starts_with("The Rust model resolves it (faster)"), "{c}");
    }
    // A missing static line: no bound is stated.
    let c = conclude(CLAIM, &[model(Dir::Faster), server("15.20", Dir::Faster), gone(View::StaticHost, "static znver4")]);
    assert!(!c.contains("bounds") && !c.contains("allows") && c.contains("not judged: the static model (missing)"), "{c}");
    // A missing model: no conclusion at all, whatever else there is.
    let c = conclude(CLAIM, &[gone(View::Model, "model (Rust)"), server("15.20", Dir::Faster), stat("znver4", 0.99)]);
    assert_eq!(c, "No conclusion: the Rust model's figure is missing.");
    // Context lines (not the claim's pair) never decide.
    let c = conclude(CLAIM, &[model(Dir::Faster), line(View::Context, "server 15.20 trim", 0.5, None, Some(Dir::Faster))]);
    assert!(c.contains("not judged: the server") && !c.contains("eproduced"), "{c}");
}

#[test]
fn every_combination_of_present_and_missing_views_respects_the_rule() {
    let dirs = [Dir::Faster, Dir::Slower, Dir::NotResolved, Dir::LayoutSensitive];
    for md in dirs {
        for sd in dirs.iter().map(Some).chain([None]) {
            for st in [Some(0.99), Some(0.9), None] {
                let mut ls = vec![model(md)];
                ls.push(match sd {
                    Some(d) => server("15.20", *d),
                    None => gone(View::Server, "server"),
                });
                ls.push(match st {
                    Some(r) => stat("znver4", r),
                    None => gone(View::StaticHost, "static znver4"),
                });
                let c = conclude(CLAIM, &ls);
                let judged_server = ["eproduced in the server", "Model only", "Contradicted", "Not resolved"].iter().any(|w| c.contains(w));
                assert_eq!(judged_server, sd.is_some(), "server judged iff present: {c}");
                let judged_static = c.contains("bounds it below") || c.contains("allows the claim");
                assert_eq!(judged_static, st.is_some(), "static judged iff present: {c}");
                assert!(c.ends_with('.') && c.matches(". ").count() == 0, "one sentence: {c}");
            }
        }
    }
}

#[test]
fn judge_uses_the_interval_and_the_floor() {
    assert_eq!(seeds::judge(0.97, Some((0.95, 0.99)), 0.01), Dir::Faster);
    assert_eq!(seeds::judge(0.97, Some((0.95, 1.01)), 0.01), Dir::NotResolved);
    assert_eq!(seeds::judge(0.995, Some((0.99, 0.998)), 0.01), Dir::NotResolved);
    assert_eq!(seeds::judge(1.03, None, 0.01), Dir::Slower);
}

// ---- the whole command over synthetic files ----

fn hotloops(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).output().expect("run hotloops")
}

/// The saved report of this host cut to local-index, with the Rust pair's wall-clock row of
/// table3-bitmap set to `ratio` [lo, hi] and `verdict`.
fn synthetic_report(dir: &Path, ratio: f64, lo: f64, hi: f64, verdict: &str) -> PathBuf {
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/report.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    v["studies"].as_array_mut().unwrap().retain(|s| s["name"] == "local-index");
    v["rows"].as_array_mut().unwrap().retain(|r| r["study"] == "local-index");
    for r in v["rows"].as_array_mut().unwrap() {
        if r["case"] == "table3-bitmap" && r["variant"] == "local-index/local" && r["metric"] == "wall-clock" {
            r["ratio"] = ratio.into();
            r["ci_low"] = lo.into();
            r["ci_high"] = hi.into();
            r["verdict"] = verdict.into();
        }
    }
    let p = dir.join("report.json");
    std::fs::write(&p, serde_json::to_string(&v).unwrap()).unwrap();
    p
}

/// The host of the saved report [`synthetic_report`] starts from, as a `hotloops pg` file
/// names it.
const AMD_HOST: &str = "AMD EPYC (vendor AuthenticAMD, family 25, model 0x11), 2 logical CPUs";

/// A `hotloops pg` file of [`AMD_HOST`] whose batched-store -> batched-local (cpu) is `ratio`
/// with `verdict`.
fn synthetic_pg(dir: &Path, version: &str, ratio: f64, verdict: &str) -> PathBuf {
    synthetic_pg_on(dir, version, ratio, verdict, AMD_HOST)
}

/// [`synthetic_pg`] measured on `host` (as `/proc/cpuinfo` names it).
fn synthetic_pg_on(dir: &Path, version: &str, ratio: f64, verdict: &str, host: &str) -> PathBuf {
    let v = serde_json::json!({
        "provenance": {
            "server_version": format!("postgres (PostgreSQL) {version}"), "pg_config": "p", "extension_cflags": "f",
            "host_cpu": host, "kernel": "k", "rows": 10_000_000u64, "rounds": 20, "data": "d", "unix_time": 1,
            "command": "hotloops pg --full"
        },
        "results": [{
            "case": "btree-many", "cache_state": "warm", "query": "q", "reps": 1, "rounds": 20, "settings": [],
            "result": ["1", 1], "variants": [], "aa_floor": [0.01, 0.01],
            "pairs": [{"a": "tid-batch/batched-store", "b": "tid-batch/batched-local", "metric": "cpu",
                       "median_ratio": ratio, "ci_low": ratio - 0.005, "ci_high": ratio + 0.005, "verdict": verdict}]
        }]
    });
    let p = dir.join(format!("pg-{version}.json"));
    std::fs::write(&p, v.to_string()).unwrap();
    p
}

fn card(args: &[&Path]) -> String {
    let mut a = vec!["seed".to_string(), "000".into(), "--format".into(), "md".into()];
    for p in args {
        a.push("--report".into());
        a.push(p.display().to_string());
    }
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(&a).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout).unwrap()
}

fn conclusion(md: &str) -> String {
    let start = md.find("**Conclusion: ").expect("a conclusion");
    let rest = &md[start + 14..];
    rest[..rest.find("**").unwrap()].split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn cards_from_synthetic_files_follow_their_views() {
    let d = tempfile::tempdir().unwrap();
    // Model faster, server faster: reproduced, and the card says which file and command.
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let pg = synthetic_pg(d.path(), "17.9", 0.97, "faster");
    let md = card(&[&rep, &pg]);
    assert!(conclusion(&md).starts_with("Reproduced in the server (17.9 warm"), "{md}");
    let flat = md.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("PostgreSQL 17.9") && flat.contains("`hotloops pg --full`") && flat.contains(&pg.display().to_string()), "{md}");
    for l in md.lines() {
        assert!(l.chars().count() < 100, "a line of {} columns: {l}", l.chars().count());
    }
    // The server unresolved: model only.
    let pg = synthetic_pg(d.path(), "17.9", 0.999, "not resolved");
    assert!(conclusion(&card(&[&rep, &pg])).starts_with("Model only: the server does not resolve it"));
    // Model unresolved too: not resolved (intervals that hold the claim never read "not
    // reproduced").
    let rep = synthetic_report(d.path(), 0.999, 0.98, 1.02, "not-resolved");
    let c = conclusion(&card(&[&rep, &pg]));
    assert!(c.starts_with("Not resolved") && !c.contains("not reproduced"), "{c}");
    // No server file: the card names the missing view and its command, and judges nothing of it.
    let md = card(&[&rep]);
    let c = conclusion(&md);
    assert!(c.contains("not judged: the server, the static model (missing)") && !c.contains("eproduced"), "{c}");
    // (Lines are wrapped: compare with the spaces squeezed.)
    let flat = md.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("MISSING: no `hotloops pg` run; produce it with `hotloops pg --full"), "{md}");
    // No model.json beside it: the static line is missing, with the command that writes it.
    assert!(flat.contains("produce it with `hotloops model local-index --json > model.json`"), "{md}");
}

#[test]
fn a_c_configuration_the_report_did_not_run_names_its_flag() {
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    // As a quick report: gcc12-pg's C rows only.
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    v["rows"].as_array_mut().unwrap().retain(|r| !r["variant"].as_str().unwrap().contains("@clang19-pg"));
    std::fs::write(&rep, v.to_string()).unwrap();
    let flat = card(&[&rep]).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("MISSING: the report did not run the clang19-pg rows; produce it with `hotloops report --study local-index --full --config clang19-pg`"), "{flat}");
    // The configuration it did run keeps the plain command.
    assert!(!flat.contains("--config gcc12-pg"), "{flat}");
}

#[test]
fn the_servers_instructions_are_a_line_per_version() {
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let side = |n: f64| serde_json::json!({"what": "w", "tids": 1000, "total_per_tid": n, "functions": []});
    let v = serde_json::json!({"host_cpu": AMD_HOST, "command": "hotloops pg --instructions --full", "servers": [{
        "server_version": "postgres (PostgreSQL) 17.9", "rows": 1000,
        "comparisons": [
            {"case": "btree-many", "variant": "tid-batch/batched-store", "server": side(100.0), "model": null},
            {"case": "btree-many", "variant": "tid-batch/batched-local", "server": side(90.0), "model": null}
        ]}]});
    let p = d.path().join("pg-instructions.json");
    std::fs::write(&p, v.to_string()).unwrap();
    let md = card(&[&rep, &p]);
    let row = md.lines().find(|l| l.contains("instructions server 17.9")).unwrap_or_else(|| panic!("{md}"));
    assert!(row.contains("-10.00% instr"), "{row}");
    // Without the file, the line is missing and names the command.
    let md = card(&[&rep]);
    assert!(md.lines().any(|l| l.contains("instructions server") && l.contains("missing")), "{md}");
}

#[test]
fn a_directory_is_its_json_and_pg_json() {
    let d = tempfile::tempdir().unwrap();
    synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    std::fs::create_dir(d.path().join("pg")).unwrap();
    synthetic_pg(&d.path().join("pg"), "18.6", 1.03, "slower");
    let md = card(&[d.path()]);
    assert!(conclusion(&md).starts_with("Contradicted by the server"), "{md}");
}

#[test]
fn an_unknown_seed_lists_the_valid_ones() {
    let o = hotloops(&["seed", "003"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    for s in ["000", "001", "002", "004"] {
        assert!(err.contains(s), "{err}");
    }
}

#[test]
fn missing_and_corrupt_files_are_named() {
    let d = tempfile::tempdir().unwrap();
    let gone = d.path().join("nope.json");
    let o = hotloops(&["seed", "000", "--report", gone.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(gone.to_str().unwrap()));
    let bad = d.path().join("report.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let o = hotloops(&["seed", "000", "--report", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(bad.to_str().unwrap()) && err.contains("not valid JSON"), "{err}");
    // Corrupt inside a directory: passed over and named (the other files still make cards).
    let o = hotloops(&["seed", "000", "--report", d.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(out.contains(&format!("not read: {} (not valid JSON", bad.display())), "{out}");
    // JSON of no kind the cards read, given as a file.
    let other = d.path().join("other.json");
    std::fs::write(&other, "{\"x\": 1}").unwrap();
    let o = hotloops(&["seed", "000", "--report", other.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("other.json"));
}

#[test]
fn a_closed_stdout_ends_quietly() {
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let mut child = Command::new(env!("CARGO_BIN_EXE_hotloops"))
        .args(["seed", "000", "--report", rep.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(o.status.success(), "{:?} {err}", o.status);
}

/// The saved report of this host cut to `study`, with `pg` set to `pg` (or none).
fn report_with_pg(dir: &Path, study: &str, pg: Option<serde_json::Value>) -> PathBuf {
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/report.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    v["studies"].as_array_mut().unwrap().retain(|s| s["name"] == study);
    v["rows"].as_array_mut().unwrap().retain(|r| r["study"] == study);
    v["pg"] = pg.unwrap_or(serde_json::Value::Null);
    let p = dir.join("report.json");
    std::fs::write(&p, serde_json::to_string(&v).unwrap()).unwrap();
    p
}

fn saved_pg(name: &str) -> serde_json::Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/pg").join(name);
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// `report --pg` embeds the read-stream and dir-by-value runs: a card read from report.json
/// alone (and the card at the top of report.md) shows their server lines, not "missing".
#[test]
fn a_reports_own_server_runs_reach_its_cards() {
    for (seed, study, field, file) in [("002", "read-stream", "read_stream", "pg-read-stream-1m.json"), ("001", "dir-by-value", "dir_by_value", "pg-dir-by-value-quick.json")] {
        let d = tempfile::tempdir().unwrap();
        let server_line = |md: &str| md.lines().filter(|l| l.starts_with("| server 18")).map(String::from).collect::<Vec<_>>();
        let run = |p: &Path| {
            let o = hotloops(&["seed", seed, "--report", &p.display().to_string(), "--format", "md"]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            String::from_utf8(o.stdout).unwrap()
        };
        let bare = report_with_pg(d.path(), study, None);
        let md = run(&bare);
        assert!(server_line(&md).is_empty(), "seed {seed}: a server line without a server run: {md}");
        let pg = serde_json::json!({"status": "ran", "servers": [], "sweeps": [], "fidelity": [], field: saved_pg(file)});
        let with = report_with_pg(d.path(), study, Some(pg));
        let md = run(&with);
        let lines = server_line(&md);
        assert!(lines.iter().any(|l| !l.to_lowercase().contains("missing")), "seed {seed}: {md}");
    }
}

/// Seed 004's server lines: a TPS ratio below 1 (the later server slower) is a time ratio
/// above 1 with the verdict "slower", as the run itself judged it.
#[test]
fn seed_004s_regression_reads_as_the_later_server_slower() {
    let d = tempfile::tempdir().unwrap();
    let rec = |ratio: f64, lo: f64, hi: f64, verdict: &str, index: bool| {
        serde_json::json!({"partitions": 100, "index_on_bid": index, "protocol": "simple", "clients": 1, "arm": "plain", "arm_env": [],
            "servers": [], "pair": ["17.11", "18.6"], "ratio": ratio, "ci_low": lo, "ci_high": hi, "verdict": verdict, "aa_ratio": 1.0, "aa_floor": 0.05})
    };
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-intel-xeon-emr-2core/pg/pg-seed004-quick.json");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(saved).unwrap()).unwrap();
    v["records"] = serde_json::json!([rec(0.5, 0.45, 0.55, "slower", true), rec(1.0, 0.95, 1.05, "not resolved", false)]);
    let p = d.path().join("pg-seed004.json");
    std::fs::write(&p, v.to_string()).unwrap();
    let o = hotloops(&["seed", "004", "--report", &p.display().to_string(), "--format", "md"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8(o.stdout).unwrap();
    let row = |on: bool| md.lines().find(|l| l.starts_with("| server 17.11 -> 18.6") && l.contains(if on { "+100.00%" } else { "+0.00%" })).unwrap_or_else(|| panic!("{md}")).to_string();
    assert!(row(true).contains("slower"), "{md}");
    assert!(row(false).contains("not resolved"), "{md}");
}

/// A folder of one host's files with one malformed report.json (the right schema, a field
/// missing): the card is made from the other files and names the malformed one, as a
/// malformed pg file is; it is not a refusal of every card.
#[test]
fn a_malformed_report_in_a_folder_is_passed_over_and_named() {
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("rows");
    std::fs::write(&rep, v.to_string()).unwrap();
    synthetic_pg(d.path(), "18.6", 0.97, "faster");
    let o = hotloops(&["seed", "000", "--report", d.path().to_str().unwrap(), "--format", "md"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8(o.stdout).unwrap();
    let flat = md.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains(&format!("not read: {}", rep.display())) && flat.contains("rows"), "{md}");
    assert!(md.lines().any(|l| l.starts_with("| server 18.6") && !l.contains("missing")), "the pg file still makes its line: {md}");
}

/// Views of two hosts (the AMD report's model lines, an Intel pg file's server line): the card
/// names each host with its views and concludes nothing across them; --mixed-hosts concludes,
/// still naming both; one host's files conclude as before.
#[test]
fn a_card_of_two_hosts_names_them_and_concludes_only_when_asked() {
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let intel = "Intel(R) Xeon(R) Processor (vendor GenuineIntel, family 6, model 0xa7), 2 logical CPUs";
    let pg = synthetic_pg_on(d.path(), "18.6", 0.97, "faster", intel);
    let md = card(&[&rep, &pg]);
    let flat = md.split_whitespace().collect::<Vec<_>>().join(" ");
    let c = conclusion(&md);
    assert!(c.starts_with("No conclusion: these views come from 2 hosts") && !c.contains("eproduced"), "{md}");
    assert!(flat.contains("views from 2 hosts: AMD EPYC (family 25, model 0x11) (model (Rust)") && flat.contains("Intel(R) Xeon(R) Processor (family 6, model 0xa7) (server 18.6"), "{md}");
    assert!(flat.contains("--mixed-hosts"), "{md}");
    // Asked: the conclusion, the hosts still named.
    let o = hotloops(&["seed", "000", "--report", rep.to_str().unwrap(), "--report", pg.to_str().unwrap(), "--format", "md", "--mixed-hosts"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = String::from_utf8(o.stdout).unwrap();
    assert!(conclusion(&md).starts_with("Reproduced in the server (18.6"), "{md}");
    assert!(md.split_whitespace().collect::<Vec<_>>().join(" ").contains("views from 2 hosts"), "{md}");
    // The same pg file from the report's host: one host, a conclusion.
    let pg = synthetic_pg(d.path(), "18.6", 0.97, "faster");
    assert!(conclusion(&card(&[&rep, &pg])).starts_with("Reproduced in the server (18.6"));
}

/// `hotloops list` and the seed 000 card name the same version of the patch Haibo reviewed.
#[test]
fn list_and_the_card_name_the_same_patch_version() {
    let list = String::from_utf8(hotloops(&["list"]).stdout).unwrap();
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let md = card(&[&rep]).split_whitespace().collect::<Vec<_>>().join(" ");
    let version = |t: &str| ["v1", "v2"].into_iter().filter(|v| t.contains(&format!("review of TID batching {v}"))).collect::<Vec<_>>();
    assert_eq!(version(&list).len(), 1, "{list}");
    assert_eq!(version(&md), version(&list), "list: {:?}, card: {:?}", version(&list), version(&md));
}

/// A report's card reads the static model that report ran (its `static_predictions`), and says
/// "missing" for it only when the report ran none, naming why.
#[test]
fn a_reports_own_static_model_is_on_its_card() {
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    let pred = |id: &str, c: f64| serde_json::json!({"id": id, "per_cpu": [{"cpu": "znver4", "predicted": c}, {"cpu": "skylake", "predicted": c + 1.0}]});
    v["studies"][0]["static_predictions"] = serde_json::json!({"host_model": "znver4", "host_ghz": 3.0, "studies": [
        {"study": "local-index", "variants": [pred("local-index/store-each", 10.0), pred("local-index/local", 9.0)]}
    ]});
    std::fs::write(&rep, v.to_string()).unwrap();
    // It loads (the field is the report's own) and heads the card's static line.
    hotloops::report::load(&rep).unwrap();
    let flat = card(&[&rep]).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("static znver4 (host's) (store-each -> local): loop 10.00 -> 9.00 cycles"), "{flat}");
    assert!(!flat.contains("hotloops model local-index --json") && !flat.contains("no model.json"), "{flat}");
    assert!(flat.contains("`hotloops report --study local-index --full`"), "the report's command reproduces it: {flat}");
    // A view nothing can produce (the review names no CPU) is not applicable, not missing.
    assert!(flat.contains("| static, seed's core | n/a |") && flat.contains("static, seed's core (store-each -> local): n/a: the review names no CPU"), "{flat}");
    // A report that ran without its model says so, rather than "no model.json".
    v["studies"][0].as_object_mut().unwrap().remove("static_predictions");
    v["studies"][0]["static_model"] = "".into();
    std::fs::write(&rep, v.to_string()).unwrap();
    let flat = card(&[&rep]).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("MISSING: the report ran without the static model (--no-model) and no model.json was given"), "{flat}");
}

/// A C configuration the report's host did not build is named as such, from the report's own
/// record of its configurations.
#[test]
fn a_c_configuration_not_built_on_the_reports_host_says_so() {
    let d = tempfile::tempdir().unwrap();
    let rep = synthetic_report(d.path(), 0.96, 0.95, 0.97, "faster");
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&rep).unwrap()).unwrap();
    v["rows"].as_array_mut().unwrap().retain(|r| !r["variant"].as_str().unwrap().contains("@clang19-pg"));
    for c in v["config"]["c_configs"].as_array_mut().unwrap() {
        if c["name"] == "clang19-pg" {
            c["compiler"] = "".into();
            c["ran"] = false.into();
            c["note"] = "clang-19 not found (apt-get install clang-19)".into();
        }
    }
    std::fs::write(&rep, v.to_string()).unwrap();
    let flat = card(&[&rep]).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("MISSING: clang19-pg is not built on the host of this report (clang-19 not found (apt-get install clang-19))"), "{flat}");
}

#[test]
fn the_patched_build_decides_with_its_own_verdict_over_the_server_lines() {
    let mut b = line(View::Build, "build 18.6 local-index", 1.001, Some((0.996, 1.006)), Some(Dir::NotResolved));
    if let Ok(f) = &mut b.figure {
        f.note = "excluded: the effect lies within [-0.30%, +0.50%] (90%), the claim of -2.19% is outside it".into();
    }
    // The extension's server line says faster; the patched build, measured at the claim's
    // precision, excludes the claim: the build decides.
    let c = conclude(CLAIM, &[model(Dir::Faster), server("18.6", Dir::Faster), b.clone(), stat("znver4", 0.95)]);
    assert!(c.starts_with("The patched build settles it: excluded: the effect lies within"), "{c}");
    assert!(c.contains("the Rust model agrees in direction (faster)") && !c.contains("eproduced in the server"), "{c}");
    // A missing build line decides nothing: the server lines do.
    let c = conclude(CLAIM, &[model(Dir::Faster), server("18.6", Dir::Faster), gone(View::Build, "patched build")]);
    assert!(c.starts_with("Reproduced in the server"), "{c}");
}

#[test]
fn a_resolved_build_whose_instructions_barely_move_says_the_effect_is_elsewhere() {
    let mut b = line(View::Build, "build 18.6 amroutine-static", 0.62, Some((0.60, 0.65)), Some(Dir::Faster));
    if let Ok(f) = &mut b.figure {
        f.note = "reproduced: -38.00% [-40.00%, -35.00%]".into();
    }
    // -0.39% of the instructions against -38% of the time: under a quarter, said.
    let c = conclude(0.5, &[model(Dir::NotResolved), b.clone(), line(View::BuildInstructions, "instructions amroutine-static", 0.9961, None, None)]);
    assert!(c.contains("its instructions change by -0.39% (callgrind), under a quarter of the time's -38.00%"), "{c}");
    // Instructions that account for the effect: nothing added.
    let c = conclude(0.5, &[model(Dir::NotResolved), b.clone(), line(View::BuildInstructions, "instructions amroutine-static", 0.80, None, None)]);
    assert!(!c.contains("its instructions change"), "{c}");
    // An unresolved build says nothing about where its effect went.
    let mut u = b;
    if let Ok(f) = &mut u.figure {
        f.verdict = Some(Dir::NotResolved);
    }
    let c = conclude(0.5, &[model(Dir::NotResolved), u, line(View::BuildInstructions, "instructions amroutine-static", 0.9961, None, None)]);
    assert!(!c.contains("its instructions change"), "{c}");
}

#[test]
fn a_mechanism_arm_under_which_the_effect_is_gone_says_what_the_effect_is() {
    let mut b = line(View::Build, "build 18.6 amroutine-static", 0.62, Some((0.60, 0.65)), Some(Dir::Faster));
    if let Ok(f) = &mut b.figure {
        f.note = "reproduced: -38.00% [-40.00%, -35.00%]".into();
    }
    let mech = |d: Dir| {
        let mut m = line(View::Mechanism, "build 18.6 static-untrimmed", 1.017, Some((1.001, 1.025)), Some(d));
        m.pair = format!("18 -> 18+static{}the saving is the heap's trim", seeds::IF_GONE);
        if let Ok(f) = &mut m.figure {
            f.note = "with the trim off, the patch's effect is not resolved: +1.70%".into();
        }
        m
    };
    let c = conclude(0.5, &[model(Dir::NotResolved), b.clone(), mech(Dir::NotResolved)]);
    assert!(c.contains("with the trim off, the patch's effect is not resolved: +1.70%: the effect is gone there, so the saving is the heap's trim"), "{c}");
    let c = conclude(0.5, &[model(Dir::NotResolved), b.clone(), mech(Dir::Faster)]);
    assert!(c.contains("it holds there too") && !c.contains("gone there"), "{c}");
    // An unresolved decisive arm reads no mechanism.
    let mut u = b;
    if let Ok(f) = &mut u.figure {
        f.verdict = Some(Dir::NotResolved);
    }
    let c = conclude(0.5, &[model(Dir::NotResolved), u, mech(Dir::NotResolved)]);
    assert!(!c.contains("gone there"), "{c}");
}

fn seed_card(seed: &str, files: &[&Path]) -> String {
    let mut args = vec!["seed".to_string(), seed.to_string(), "--format".into(), "md".into()];
    for f in files {
        args.push("--report".into());
        args.push(f.display().to_string());
    }
    let o = Command::new(env!("CARGO_BIN_EXE_hotloops")).args(&args).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn a_pg_seed_run_is_the_cards_deciding_line_and_seed_004_says_what_each_patch_removes() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let md = seed_card("001", &[&fixtures.join("pg-seed-001.json")]);
    let flat = md.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("build 18.6 range-15000"), "{md}");
    assert!(flat.contains("AMD EPYC (family 25, model 0x11); PostgreSQL 18.6"), "the run's host heads the card: {md}");
    assert!(flat.contains("**Conclusion: The patched build settles it: excluded: the effect lies within"), "{md}");
    assert!(flat.contains("`hotloops pg seed 001 --arm range-15000`"), "{md}");
    // Seed 004: a static arm beside the regression: the share of the regression it removes,
    // from the two ratios (R (1 - P) / (R - 1)).
    let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(fixtures.join("pg-seed-004.json")).unwrap()).unwrap();
    let arms = v["arms"].as_array_mut().unwrap();
    let regression = arms.iter().find(|a| a["id"] == "regression-17-18").unwrap()["ab"]["metrics"].as_array().unwrap().iter().find(|m| m["name"] == "latency").unwrap()["effect"]["median"].as_f64().unwrap();
    let mut stat = arms.iter().find(|a| a["id"] == "glibc-trim").unwrap().clone();
    stat["id"] = "amroutine-static".into();
    stat["decisive"] = true.into();
    stat["ab"]["metrics"].as_array_mut().unwrap().iter_mut().for_each(|m| m["effect"]["median"] = 0.9.into());
    arms.push(stat);
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("pg-seed-004.json");
    std::fs::write(&f, serde_json::to_string(&v).unwrap()).unwrap();
    let md = seed_card("004", &[&f]);
    let flat = md.split_whitespace().collect::<Vec<_>>().join(" ");
    let want = regression * 0.1 / (regression - 1.0) * 100.0;
    assert!(flat.contains(&format!("it removes {want:.0}% of the regression")), "{want:.0}%: {md}");
}
