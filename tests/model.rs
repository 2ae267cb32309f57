//! The static core model: steady-state blocks from every snapshot, the stack
//! rewrite, the memory-recurrence detector, llvm-mca's JSON, and one real llvm-mca run.

use hotloops::asm::structure::Cfg;
use hotloops::model::{self, block, mca, recurrence, rewrite};
use hotloops::study::{self, STUDIES};
use std::process::Command;

const FIXTURE: &str = include_str!("fixtures/llvm-mca-19-skylake-store-each.json");

fn snapshot(id: &str) -> String {
    hotloops::asm::read_snapshot(&hotloops::asm::snapshot_dir(), id).unwrap()
}

/// Block index of a path label (`.L3` or `#k` for an unlabelled block).
fn block_index(cfg: &Cfg, label: &str) -> usize {
    match label.strip_prefix('#') {
        Some(k) => k.parse().unwrap(),
        None => cfg.blocks.iter().position(|b| b.label.as_deref() == Some(label)).unwrap_or_else(|| panic!("no block {label}")),
    }
}

#[test]
fn every_snapshot_gives_a_steady_block_that_closes_its_loop() {
    let mut n = 0;
    for s in STUDIES {
        let info = s.info();
        for v in info.variants {
            let kb = model::kernel_block(&hotloops::asm::snapshot_dir(), v.id).unwrap_or_else(|e| panic!("{}: {e:#}", v.id));
            assert!(!kb.steady.insns.is_empty() && !kb.rewritten.insns.is_empty(), "{}: empty block", v.id);
            // The loop's symbol is the kernel or one of its helpers, matched by the registry.
            let sym = &kb.steady.symbol;
            // (A C kernel's snapshot names its symbols without the configuration's suffix.)
            assert!(*sym == v.snapshot_symbol(v.kernel) || v.helpers.iter().any(|h| v.snapshot_symbol(h) == sym), "{}: loop in {sym}", v.id);
            let snap = snapshot(v.id);
            let body = hotloops::asm::symbol_body(&snap, sym).unwrap();
            let cfg = Cfg::parse(body);
            // Every path block is in the kernel's loop, and the last one goes back to the header.
            let helpers: Vec<&str> = v.helpers.iter().map(|h| v.snapshot_symbol(h)).collect();
            let lp = block::loop_blocks(&snap, sym, &helpers).unwrap();
            for b in &kb.steady.path_blocks {
                assert!(lp.contains(b), "{}: path block {b} not in the loop {lp:?}", v.id);
            }
            let header = block_index(&cfg, &kb.steady.header);
            let last = block_index(&cfg, kb.steady.path_blocks.last().unwrap());
            assert!(cfg.blocks[last].succ.contains(&header), "{}: the path does not end at the back edge", v.id);
            assert_eq!(kb.steady.path_blocks[0], kb.steady.header, "{}", v.id);
            if kb.steady.back_edge != "fall-through" {
                assert!(kb.steady.back_edge.ends_with(&kb.steady.header), "{}: back edge {}", v.id, kb.steady.back_edge);
            }
            // The llvm-mca text has only the instructions of the block, one label.
            assert_eq!(kb.mca_text.lines().filter(|l| l.ends_with(':')).count(), 1, "{}", v.id);
            n += 1;
        }
    }
    assert_eq!(n, study::all_ids().len());
}

#[test]
fn mechanisms_are_in_their_blocks() {
    let dir = hotloops::asm::snapshot_dir();
    let text = |id: &str| model::kernel_block(&dir, id).unwrap().mca_text;
    // local-index: itemIndex (+132) in store-each's loop, not in local's.
    assert!(text("local-index/store-each").contains("+ 132]"));
    assert!(!text("local-index/local").contains("+ 132]"));
    // dir-by-value: the opaque path chases scan->opaque (+56) then ->dir (+112), inlined from
    // the checkkeys helper; by-value does not read +112.
    let opaque = model::kernel_block(&dir, "dir-by-value/opaque").unwrap();
    assert!(opaque.steady.inlined.iter().any(|h| h.contains("checkkeys")), "{:?}", opaque.steady.inlined);
    assert!(opaque.mca_text.contains("+ 56]") && opaque.mca_text.contains("+ 112]"));
    assert!(!text("dir-by-value/by-value").contains("+ 112]"));
    // Neither Rust helper reloads a word store forwarding cannot serve (the `push rax` / 4-byte
    // store / `pop rcx` frame IKey's alignment removed); a failed forward, where one is, is
    // costed at the core's cited figure.
    for id in ["dir-by-value/opaque", "dir-by-value/by-value"] {
        let kb = model::kernel_block(&dir, id).unwrap();
        assert!(kb.forwarding_failures.is_empty(), "{id}: {:?}", kb.forwarding_failures);
    }
    let c = model::combine_all(8.0, &[], 1, "znver4");
    assert_eq!((c.predicted, c.stall), (21.04, Some(21.04)));
    assert_eq!(model::combine_all(8.0, &[], 0, "znver4").predicted, 8.0);
}

#[test]
fn stack_rewrite_leaves_no_call_ret_push_or_pop() {
    for id in ["dir-by-value/opaque", "dir-by-value/by-value"] {
        let kb = model::kernel_block(&hotloops::asm::snapshot_dir(), id).unwrap();
        assert!(kb.steady.insns.iter().any(|p| p.insn.op == "push"), "{id}: the helpers push");
        assert!(kb.rewritten.push_pop_rewritten > 0 && kb.rewritten.calls_dropped > 0, "{id}");
        for i in &kb.rewritten.insns {
            assert!(!matches!(i.op.as_str(), "call" | "ret" | "push" | "pop"), "{id}: {} {} left", i.op, i.args);
        }
        // Pushed registers are saved below the loop's RSP (under the return address) and
        // reloaded from the same slot.
        let saves: Vec<String> = kb
            .mca_text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("mov qword ptr [rsp - ").and_then(|r| r.split_once(']')).map(|(n, _)| n.to_string()))
            .collect();
        assert!(!saves.is_empty() && !saves.contains(&"8".to_string()), "{}", kb.mca_text);
        for n in saves {
            assert!(kb.mca_text.contains(&format!(", qword ptr [rsp - {n}]")), "{id}: slot -{n} saved, never reloaded");
        }
    }
}

#[test]
fn recurrence_detector_finds_item_index_and_nothing_in_local() {
    let dir = hotloops::asm::snapshot_dir();
    let se = model::kernel_block(&dir, "local-index/store-each").unwrap();
    let r: Vec<_> = se.recurrences.iter().filter(|r| r.slot.ends_with("+ 132]")).collect();
    assert_eq!(r.len(), 1, "{:?}", se.recurrences);
    assert_eq!((r[0].links, r[0].alu_ops), (1, 1));
    assert!(r[0].insns.iter().any(|i| i.starts_with("inc")), "{:?}", r[0].insns);
    assert!(model::kernel_block(&dir, "local-index/local").unwrap().recurrences.is_empty());
    // safe-ref keeps itemIndex in memory too, reloaded with a sign extension.
    let sr = model::kernel_block(&dir, "local-index/safe-ref").unwrap();
    assert!(sr.recurrences.iter().any(|r| r.slot.ends_with("+ 132]") && !r.renamable), "{:?}", sr.recurrences);
}

#[test]
fn removing_the_recurrence_changes_the_prediction() {
    let snap = snapshot("local-index/store-each");
    let line = snap.lines().find(|l| l.contains("inc dword ptr [") && l.contains("+ 132]")).expect("store-each increments itemIndex in memory");
    // The mutation keeps the instruction count: the increment goes to a register instead.
    let mutated = snap.replacen(line, "\tinc r15", 1);
    let (s, v) = study::variant("local-index/store-each").unwrap();
    let site = block::site_of(s.info().name);
    let orig = model::block_from_text(&snap, v.id, v.kernel, v.helpers, site).unwrap();
    let mutb = model::block_from_text(&mutated, v.id, v.kernel, v.helpers, site).unwrap();
    assert!(!orig.recurrences.is_empty() && mutb.recurrences.is_empty(), "{:?}", mutb.recurrences);
    // With llvm-mca's figure from the fixture, Skylake's prediction is the chain's 4.43 + 1.
    let mca_cycles = mca::parse_json(FIXTURE).unwrap().cycles_per_iter;
    let (with, chain) = model::combine(mca_cycles, &orig.recurrences, "skylake");
    let (without, none) = model::combine(mca_cycles, &mutb.recurrences, "skylake");
    assert!((chain.unwrap() - 5.43).abs() < 1e-9 && none.is_none());
    assert!(with > without + 1.0, "{with} vs {without}");
    assert_eq!(without, mca_cycles);
    // On Zen 3 memory renaming makes the chain cheaper than the block: no change.
    assert_eq!(model::combine(mca_cycles, &orig.recurrences, "znver3").0, mca_cycles);
    if mca::version().is_some() {
        let a = mca::run("skylake", &orig.mca_text).unwrap().cycles_per_iter;
        let b = mca::run("skylake", &mutb.mca_text).unwrap().cycles_per_iter;
        let (pa, pb) = (model::combine(a, &orig.recurrences, "skylake").0, model::combine(b, &mutb.recurrences, "skylake").0);
        assert!(pa > pb + 1.0, "real llvm-mca: {pa} vs {pb}");
    }
}

#[test]
fn llvm_mca_json_fixture_parses() {
    let r = mca::parse_json(FIXTURE).unwrap();
    assert_eq!(r.cpu, "skylake");
    assert_eq!((r.iterations, r.total_cycles), (1000, 3522));
    assert!((r.cycles_per_iter - 3.522).abs() < 1e-9);
    assert!((r.ipc - 4.8268).abs() < 1e-3);
    assert!((r.uops_per_iter - 20.0).abs() < 1e-9 && r.dispatch_width == 6);
    assert_eq!(r.pressure.len(), 8, "{:?}", r.pressure);
    assert_eq!(r.pressure[0].0, "SKLPort5");
    assert!((r.pressure[0].1 - 3.001).abs() < 1e-9);
    assert!(r.bottleneck.contains("dispatch width") || r.bottleneck.contains("SKLPort5"), "{}", r.bottleneck);
    // Bad input is an error, not a panic.
    assert!(mca::parse_json("not json").is_err());
    assert!(mca::parse_json("{\"CodeRegions\": []}").is_err());
}

#[test]
fn real_llvm_mca_run_on_a_small_block() {
    if mca::version().is_none() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI installs llvm-19 (scripts/install-tools.sh): {}", mca::missing_message());
        eprintln!("skipped: {}", mca::missing_message());
        return;
    }
    let insns = vec![
        hotloops::asm::structure::Insn { op: "add".into(), args: "rax, rbx".into() },
        hotloops::asm::structure::Insn { op: "add".into(), args: "rax, rcx".into() },
    ];
    for cpu in model::DEFAULT_CPUS {
        let r = mca::run(cpu, &rewrite::mca_text(&insns)).unwrap();
        // Two dependent adds: a two-cycle chain on every core.
        assert!((r.cycles_per_iter - 2.0).abs() < 0.05, "{cpu}: {}", r.cycles_per_iter);
        assert!(r.bottleneck.starts_with("dependency chain"), "{cpu}: {}", r.bottleneck);
    }
    assert!(mca::run("bogus", &rewrite::mca_text(&insns)).is_err());
}


#[test]
fn blocks_run_as_regions_of_one_llvm_mca_equal_each_run_alone() {
    if mca::version().is_none() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI installs llvm-19 (scripts/install-tools.sh): {}", mca::missing_message());
        eprintln!("skipped: {}", mca::missing_message());
        return;
    }
    let i = |op: &str, a: &str| hotloops::asm::structure::Insn { op: op.into(), args: a.into() };
    // A chain, a port-bound block, and a store-reload loop: three different bottlenecks, each
    // with the block label every snapshot block carries.
    let blocks: Vec<String> = [
        vec![i("add", "rax, rbx"), i("add", "rax, rcx")],
        vec![i("imul", "rax, rbx"), i("imul", "rcx, rdx"), i("imul", "rsi, rdi")],
        vec![i("mov", "eax, dword ptr [rsp + 8]"), i("inc", "eax"), i("mov", "dword ptr [rsp + 8], eax"), i("jne", ".Lhl_block")],
    ]
    .iter()
    .map(|b| rewrite::mca_text(b))
    .collect();
    let refs: Vec<&str> = blocks.iter().map(String::as_str).collect();
    assert_eq!(mca::regions_text(&refs).matches("LLVM-MCA-BEGIN").count(), 3);
    for cpu in ["znver4", "sapphirerapids"] {
        let many = mca::run_many(cpu, &refs);
        assert_eq!(many.len(), 3);
        for (b, m) in refs.iter().zip(&many) {
            assert_eq!(m.as_ref().unwrap(), &mca::run(cpu, b).unwrap(), "{cpu}: {b}");
        }
    }
    // A block llvm-mca rejects fails alone: the others still get their figures.
    let bad = [refs[0], ".intel_syntax noprefix\n\tnot_an_instruction rax\n", refs[1]];
    let got = mca::run_many("znver4", &bad);
    assert!(got[0].is_ok() && got[1].is_err() && got[2].is_ok(), "{got:?}");
    assert!(mca::parse_json_regions("{\"CodeRegions\": [{}]}", 2).is_err());
}
#[test]
fn forwarding_table_covers_the_default_cpus_with_sources() {
    for cpu in model::DEFAULT_CPUS {
        let f = recurrence::forwarding(cpu).unwrap_or_else(|| panic!("{cpu}"));
        assert!(!f.source.is_empty());
    }
    assert!(recurrence::forwarding("skylake").unwrap().cycles > 4.0);
    assert!(recurrence::forwarding("znver3").unwrap().cycles <= 1.0);
}

#[test]
fn pipeline_flag_only_when_the_pipeline_difference_dwarfs_the_loops() {
    assert!(model::pipeline_flag(0.9, 5.5).is_some());
    assert!(model::pipeline_flag(2.6, 2.9).is_none());
}

fn hotloops(args: &[&str], path: Option<&str>) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hotloops"));
    c.args(args);
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().unwrap()
}

#[test]
fn cli_usage_errors_exit_2() {
    for args in [vec!["model", "nope"], vec!["model", "local-index/nope"], vec!["model", "--cpu", "bogus"], vec!["model", "--cpu", ","]] {
        let o = hotloops(&args, None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
}

#[test]
fn cli_without_llvm_mca_names_the_package_and_exits_2() {
    let o = hotloops(&["model", "local-index", "--no-measure"], Some("/nonexistent"));
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("llvm-19") && err.contains("llvm-mca-19"), "{err}");
}

#[test]
fn cli_json_has_a_prediction_per_variant_and_cpu() {
    if mca::version().is_none() {
        eprintln!("skipped: {}", mca::missing_message());
        return;
    }
    let o = hotloops(&["model", "local-index", "--json", "--no-measure", "--cpu", "skylake,znver3"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["llvm_mca"].as_str().unwrap().contains("19."));
    let vars = v["studies"][0]["variants"].as_array().unwrap();
    assert_eq!(vars.len(), hotloops::study::local_index::info().variants.len(), "every row, the C kernels too");
    for var in vars {
        let per = var["per_cpu"].as_array().unwrap();
        assert_eq!(per.len(), 2, "{var}");
        for p in per {
            let pred = p["predicted"].as_f64().unwrap();
            assert!(pred > 0.5 && pred < 100.0, "{p}");
        }
    }
    // store-each on Skylake is set by the itemIndex chain.
    let se = &vars[0]["per_cpu"][0];
    assert!(se["chain_cycles"].as_f64().unwrap() > se["mca"]["cycles_per_iter"].as_f64().unwrap());
}

/// `--config` models the Rust rows and only the named configuration's C rows (what a quick
/// report runs); variants that share a kernel share its figures.
#[test]
fn config_restricts_the_c_rows_and_shared_kernels_share_figures() {
    if mca::version().is_none() {
        eprintln!("skipped: {}", mca::missing_message());
        return;
    }
    let o = hotloops(&["model", "local-index", "--json", "--no-measure", "--cpu", "znver4", "--config", "gcc12-pg"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ids: Vec<&str> = v["studies"][0]["variants"].as_array().unwrap().iter().map(|x| x["id"].as_str().unwrap()).collect();
    let want: Vec<&str> =
        hotloops::study::local_index::info().variants.iter().filter(|r| r.in_configs(&["gcc12-pg"])).map(|r| r.id).collect();
    assert_eq!(ids, want);
    assert!(ids.iter().any(|i| i.starts_with("local-index/c-")) && !ids.iter().any(|i| i.contains('@')), "{ids:?}");
    let o = hotloops(&["model", "alloc-churn", "--json", "--no-measure", "--cpu", "znver4,skylake"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let vars = v["studies"][0]["variants"].as_array().unwrap();
    let of = |id: &str| vars.iter().find(|x| x["id"] == id).unwrap_or_else(|| panic!("{id} modelled"));
    let (a, b) = (of("alloc-churn/palloc-routine"), of("alloc-churn/palloc-mallopt-trim"));
    assert_eq!(a["symbol"], b["symbol"]);
    assert_eq!(a["per_cpu"], b["per_cpu"]);
    assert_ne!(a["per_cpu"], of("alloc-churn/static-routine")["per_cpu"]);
}

#[test]
fn host_harness_times_blocks_and_reports_a_faulting_one() {
    use hotloops::asm::structure::Insn;
    let i = |op: &str, a: &str| Insn { op: op.into(), args: a.into() };
    let chain = vec![i("add", "rax, rbx"), i("add", "rax, rcx")];
    let faulting = vec![i("ud2", "")];
    // Addresses the harness cannot trust become scratch slots: this indexed load must not fault.
    let indexed = vec![i("mov", "eax, dword ptr [r13 + 8*rax + 4]"), i("inc", "eax")];
    let blocks = vec![(chain, vec![None; 2]), (faulting, vec![None]), (indexed, vec![None; 2])];
    let r = model::host::measure_blocks(&blocks, 200_000, None).unwrap();
    assert_eq!(r.len(), 3);
    let m = r[0].as_ref().unwrap();
    assert!(m.cycles_per_iter.is_finite() && m.cycles_per_iter > 0.0 && m.ghz > 0.0, "{m:?}");
    // Two dependent register adds are two cycles on every x86 core, so the clock must say so
    // (an `add reg, 1` clock, folded at rename on Intel's cores from Golden Cove on, read 24 GHz
    // on the 0xA7 host and this block as 12 cycles). A loaded host slows block and clock alike.
    assert!((1.5..=3.0).contains(&m.cycles_per_iter) && m.ghz < 8.0, "a 2-cycle chain measured {:.2} cycles at {:.2} GHz: {m:?}", m.cycles_per_iter, m.ghz);
    // Every process times the throughput probe too; the best is over all of them.
    assert!(m.probe_ipc > 0.0 && m.probe_best_ipc >= m.probe_ipc, "{m:?}");
    let e = r[1].as_ref().unwrap_err();
    assert!(e.contains("signal"), "{e}");
    assert!(r[2].is_ok(), "{:?}", r[2]);
    // The temporary directory is gone.
    let left = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("hotloops-model-"))
        .count();
    assert_eq!(left, 0, "harness temp dirs left behind");
}

/// A pipeline difference much larger than the loop's is flagged, a matching one is not.
#[test]
fn the_pipeline_is_set_beside_the_loop() {
    assert!(model::pipeline_flag(-0.9, -5.5).is_some(), "local-index on Intel: 0.9 cycles in the loop, 5-6 in the pipeline");
    assert!(model::pipeline_flag(-1.5, -1.2).is_none());
    assert!(model::pipeline_flag(0.0, 0.3).is_none(), "noise around zero is not flagged");
}

// ---------------------------------------------------------------------------------------------
// arm64: the gcc12-pg-arm64 kernels, predicted for the Arm cores from their
// checked-in AArch64 snapshots (no cross compiler needed).

fn arm_rows() -> Vec<String> {
    hotloops::ckernels::cross_kernels().iter().filter(|k| k.config == hotloops::ckernels::ARM64).map(|k| k.row_id()).collect()
}

#[test]
fn every_arm64_snapshot_gives_a_steady_block_that_closes_its_loop() {
    let dir = hotloops::asm::snapshot_dir();
    let rows = arm_rows();
    assert_eq!(rows.len(), hotloops::ckernels::kernels().filter(|k| k.config == hotloops::ckernels::CANONICAL).count(), "every C kernel has an arm64 row");
    for id in rows {
        let kb = model::arm_kernel_block(&dir, &id).unwrap_or_else(|e| panic!("{id}: {e:#}"));
        assert_eq!(kb.isa, hotloops::asm::structure::Isa::Aarch64, "{id}");
        let k = hotloops::ckernels::cross_kernel(&id).unwrap();
        let snap = std::fs::read_to_string(hotloops::asm::c::cross_snapshot_file(&dir, k)).unwrap();
        let body = hotloops::asm::symbol_body(&snap, &kb.steady.symbol).unwrap();
        let cfg = Cfg::parse(body);
        let header = block_index(&cfg, &kb.steady.header);
        let last = block_index(&cfg, kb.steady.path_blocks.last().unwrap());
        assert!(cfg.blocks[last].succ.contains(&header), "{id}: the path does not end at the back edge");
        // What llvm-mca reads: one label, AArch64 syntax, no call or return (modelled as 100
        // cycles by llvm-mca 19), every branch to the block.
        assert_eq!(kb.mca_text.lines().filter(|l| l.ends_with(':')).count(), 1, "{id}");
        assert!(!kb.mca_text.contains("intel_syntax"), "{id}");
        for l in kb.mca_text.lines().skip(1) {
            let op = l.split_whitespace().next().unwrap_or("");
            assert!(!matches!(op, "bl" | "blr" | "ret"), "{id}: {l}");
            if hotloops::asm::structure::is_a64_branch(op) {
                assert!(l.ends_with(model::rewrite::BLOCK_LABEL), "{id}: {l}");
            }
        }
    }
}

#[test]
fn arm64_mechanisms_are_in_their_blocks() {
    let dir = hotloops::asm::snapshot_dir();
    let b = |id: &str| model::arm_kernel_block(&dir, &format!("{id}@{}", hotloops::ckernels::ARM64)).unwrap();
    let se = b("local-index/c-store-each");
    assert!(se.mca_text.lines().any(|l| l.trim_start().starts_with("str") && l.ends_with(", 132]")), "{}", se.mca_text);
    assert!(se.mca_text.lines().any(|l| l.trim_start().starts_with("ldr") && l.ends_with(", 132]")), "{}", se.mca_text);
    assert!(!b("local-index/c-local").mca_text.contains(", 132]"));
    let op = b("dir-by-value/c-opaque");
    assert!(op.steady.inlined.iter().any(|h| h.contains("checkkeys")), "{:?}", op.steady.inlined);
    assert!(op.mca_text.contains(", 56]") && op.mca_text.contains(", 112]"), "{}", op.mca_text);
    assert!(!b("dir-by-value/c-by-value").mca_text.contains(", 112]"));
}

#[test]
fn arm64_store_each_recurrence_is_costed_from_the_cited_figures_only() {
    let dir = hotloops::asm::snapshot_dir();
    let id = format!("local-index/c-store-each@{}", hotloops::ckernels::ARM64);
    let se = model::arm_kernel_block(&dir, &id).unwrap();
    let r: Vec<_> = se.recurrences.iter().filter(|r| r.slot.ends_with(", 132]")).collect();
    assert_eq!(r.len(), 1, "{:?}", se.recurrences);
    assert_eq!((r[0].links, r[0].alu_ops), (1, 1));
    assert!(model::arm_kernel_block(&dir, &format!("local-index/c-local@{}", hotloops::ckernels::ARM64)).unwrap().recurrences.is_empty());
    // N1 (Graviton 2): one 5.50-cycle link and the add; a core without a cited figure: none.
    let (p, chain) = model::combine(1.0, &se.recurrences, "neoverse-n1");
    assert!((chain.unwrap() - 6.5).abs() < 1e-9 && (p - 6.5).abs() < 1e-9);
    for cpu in ["neoverse-v2", "ampere1"] {
        assert_eq!(model::combine(1.0, &se.recurrences, cpu), (1.0, None), "{cpu} has no cited figure: not costed");
        assert!(recurrence::NO_FORWARDING_FIGURE.iter().any(|n| n.0 == cpu));
    }
    for f in recurrence::FORWARDING.iter().filter(|f| model::is_arm_cpu(f.cpu)) {
        assert!(f.source.contains("insn_bench_aarch64") && f.cycles == f.unrenamed, "{f:?}");
    }
}

#[test]
fn removing_the_arm64_recurrence_changes_the_prediction() {
    let dir = hotloops::asm::snapshot_dir();
    let id = format!("local-index/c-store-each@{}", hotloops::ckernels::ARM64);
    let k = hotloops::ckernels::cross_kernel(&id).unwrap();
    let snap = std::fs::read_to_string(hotloops::asm::c::cross_snapshot_file(&dir, k)).unwrap();
    // The reload after the TID stores: the mutation keeps the cursor in w3 instead.
    let line = snap.lines().filter(|l| l.trim_start().starts_with("ldr w3,") && l.ends_with(", 132]")).last().expect("the reload of itemIndex");
    // (w25, the batch count, is incremented every trip: no new chain, the cursor off memory.)
    let mutated = snap.replacen(&format!("{line}\n\tadd w3, w3, 1\n"), "\tmov w3, w25\n\tadd w3, w3, 1\n", 1);
    assert_ne!(mutated, snap);
    let site = block::site_of("local-index");
    let (entry, helpers): (&str, &[&str]) = ("hotloops_local_index_c_store_each", &[]);
    let orig = model::block_from_text(&snap, &id, entry, helpers, site).unwrap();
    let mutb = model::block_from_text(&mutated, &id, entry, helpers, site).unwrap();
    assert!(!orig.recurrences.is_empty() && mutb.recurrences.is_empty(), "{:?}", mutb.recurrences);
    if mca::version().is_some() {
        let a = mca::run("neoverse-n1", &orig.mca_text).unwrap().cycles_per_iter;
        let b = mca::run("neoverse-n1", &mutb.mca_text).unwrap().cycles_per_iter;
        let (pa, pb) = (model::combine(a, &orig.recurrences, "neoverse-n1").0, model::combine(b, &mutb.recurrences, "neoverse-n1").0);
        assert!(pa > pb + 1.0, "real llvm-mca: {pa} vs {pb}");
    }
}

#[test]
fn real_llvm_mca_runs_aarch64_blocks_for_every_arm_core() {
    if mca::version().is_none() {
        eprintln!("skipped: {}", mca::missing_message());
        return;
    }
    let insns = vec![
        hotloops::asm::structure::Insn { op: "add".into(), args: "x0, x0, x1".into() },
        hotloops::asm::structure::Insn { op: "add".into(), args: "x0, x0, x2".into() },
    ];
    for cpu in model::DEFAULT_ARM_CPUS {
        let r = mca::run(cpu, &rewrite::mca_text(&insns)).unwrap_or_else(|e| panic!("{cpu}: {e:#}"));
        assert_eq!(r.cpu, cpu);
        assert!(r.bottleneck.starts_with("dependency chain"), "{cpu}: {}", r.bottleneck);
        // Two dependent adds: two cycles, except in LLVM 19's Cyclone (Apple A7) model, which
        // it uses for every Apple core, apple-m1 included: two cycles an add there.
        let want = if cpu == "apple-m1" { 4.0 } else { 2.0 };
        assert!((r.cycles_per_iter - want).abs() < 0.05, "{cpu}: {}", r.cycles_per_iter);
    }
}

/// `--cpu neoverse-v2` alone: the arm64 rows only, predicted, with no host figure.
#[test]
fn cli_arm_cpu_models_the_arm64_rows_only_and_never_measures_them() {
    if mca::version().is_none() {
        eprintln!("skipped: {}", mca::missing_message());
        return;
    }
    let o = hotloops(&["model", "local-index", "--cpu", "neoverse-v2", "--json"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let vars = v["studies"][0]["variants"].as_array().unwrap();
    let ids: Vec<&str> = vars.iter().map(|x| x["id"].as_str().unwrap()).collect();
    assert_eq!(ids, arm_rows().iter().filter(|r| r.starts_with("local-index/")).map(String::as_str).collect::<Vec<_>>());
    assert_eq!(ids[0], format!("local-index/c-store-each@{}", hotloops::ckernels::ARM64));
    for x in vars {
        assert_eq!(x["isa"], "aarch64");
        assert!(x["host"].is_null(), "an AArch64 block is never measured here: {x}");
        assert_eq!(x["per_cpu"].as_array().unwrap().len(), 1);
        assert_eq!(x["per_cpu"][0]["cpu"], "neoverse-v2");
        assert_eq!(x["baseline"], ids[0]);
        assert!(x["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("predicted only")), "{x}");
    }
}

/// The default cores: the x86 rows for the x86 cores, the arm64 rows beside them for the Arm
/// cores, each table its own.
#[test]
fn default_cpus_put_the_arm64_rows_beside_the_x86_ones() {
    if mca::version().is_none() {
        eprintln!("skipped: {}", mca::missing_message());
        return;
    }
    let o = hotloops(&["model", "dir-by-value", "--no-measure"], None);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("**arm64**") && text.contains("predicted, never measured"), "{text}");
    for cpu in model::DEFAULT_CPUS.iter().chain(model::DEFAULT_ARM_CPUS.iter()) {
        assert!(text.contains(&format!(" {cpu} |")), "{cpu} column missing:\n{text}");
    }
    let o = hotloops(&["model", "dir-by-value", "--no-measure", "--json"], None);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for x in v["studies"][0]["variants"].as_array().unwrap() {
        let n = x["per_cpu"].as_array().unwrap().len();
        match x["isa"].as_str().unwrap() {
            "aarch64" => assert_eq!(n, model::DEFAULT_ARM_CPUS.len(), "{}", x["id"]),
            _ => assert_eq!(n, model::DEFAULT_CPUS.len(), "{}", x["id"]),
        }
    }
}
