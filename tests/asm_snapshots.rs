//! Assembly snapshots: regenerate every kernel's normalised asm with cargo-show-asm and diff it
//! against `asm-snapshots/`; then read the checked-in loops and assert each variant's mechanism.
//! Re-bless after reviewing a codegen change: `scripts/bless-asm.sh`.

use hotloops::asm::{self, structure};
use hotloops::pg::nbtree::{CURR_POS_DIR_OFFSET, CURR_POS_ITEM_INDEX_OFFSET, CURR_POS_LAST_ITEM_OFFSET};
use hotloops::study;
use std::mem::offset_of;

fn snapshot(id: &str) -> String {
    asm::read_snapshot(&asm::snapshot_dir(), id).unwrap_or_else(|e| panic!("{e:#}; bless with scripts/bless-asm.sh"))
}

fn body(id: &str, symbol: &str) -> String {
    let s = snapshot(id);
    asm::symbol_body(&s, symbol).unwrap_or_else(|| panic!("{symbol} not in the snapshot of {id}")).to_string()
}

#[test]
fn snapshots_match_fresh_codegen() {
    asm::check_tool().unwrap_or_else(|e| panic!("{e:#}"));
    let bless = std::env::var_os("HOTLOOPS_BLESS").is_some();
    let dir = asm::snapshot_dir();
    let mut failures = String::new();
    // One snapshot per kernel: variants that share a kernel share its file.
    let kernels: Vec<&str> = study::kernels().iter().map(|k| k.id).collect();
    for &id in &kernels {
        let fresh = asm::generate(id).unwrap_or_else(|e| panic!("generating {id}: {e:#}"));
        if bless {
            asm::write_snapshot(&dir, id, &fresh).unwrap();
            continue;
        }
        match asm::read_snapshot(&dir, id) {
            Ok(old) => failures.push_str(&asm::unified_diff(&format!("asm-snapshots/{id}.s"), &old, &format!("fresh {id}"), &fresh)),
            Err(_) => failures.push_str(&format!("asm-snapshots/{id}.s is missing\n")),
        }
    }
    // A snapshot for an id that no longer exists is stale.
    for entry in walk(&dir) {
        let rel = entry.strip_prefix(&dir).unwrap().to_string_lossy().trim_end_matches(".s").to_string();
        if rel.contains('@') {
            continue; // a C kernel's `<variant>@<config>` snapshot: tests/ckernels_asm.rs checks those
        }
        if !kernels.contains(&rel.as_str()) {
            failures.push_str(&format!("asm-snapshots/{rel}.s belongs to no registered kernel\n"));
        }
    }
    assert!(
        failures.is_empty(),
        "code generation changed:\n{failures}\nReview the diff; if intended, re-bless with scripts/bless-asm.sh and commit asm-snapshots/."
    );
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "s") {
            out.push(p);
        }
    }
    out
}

#[test]
fn helpers_never_use_the_entry_prefix() {
    for s in study::STUDIES {
        for v in s.info().variants {
            for h in v.helpers {
                assert!(!h.starts_with("hotloops_"), "{h}: helpers are hl_*, so the toggle glob hotloops_* matches entries only");
            }
        }
    }
}

const II: i64 = CURR_POS_ITEM_INDEX_OFFSET as i64;
const LI: i64 = CURR_POS_LAST_ITEM_OFFSET as i64;

#[test]
fn store_each_loads_and_stores_the_cursor_every_iteration() {
    let b = body("local-index/store-each", "hotloops_local_index_store_each");
    let uses = structure::slot_use_in_loops(&b, II);
    assert!(
        uses.iter().any(|u| u.loads >= 1 && u.stores >= 1),
        "store-each's copy loop must load and store so->currPos.itemIndex ([so + {II}]) each iteration: {uses:?}\n{b}"
    );
    let last = structure::slot_use_in_loops(&b, LI);
    assert!(last.iter().any(|u| u.loads >= 1), "store-each must reload lastItem each iteration: {last:?}");
}

#[test]
fn local_keeps_the_cursor_out_of_memory_in_its_loop() {
    let b = body("local-index/local", "hotloops_local_index_local");
    let loops = structure::Cfg::parse(&b).call_free_loops();
    assert!(!loops.is_empty(), "local has no call-free loop:\n{b}");
    for (slot, name) in [(II, "itemIndex"), (LI, "lastItem")] {
        let uses = structure::slot_use_in_loops(&b, slot);
        assert!(uses.iter().all(|u| u.loads == 0 && u.stores == 0), "local's loop touches {name} in memory: {uses:?}\n{b}");
    }
}

/// The seed-era note said LLVM keeps `&mut` cursors in a register but must store them each
/// iteration. rustc 1.95 on this loop stores it each iteration and also reloads it: the copy
/// loop and the page-step loop share one header, where the reload sits. This test pins what
/// the doc comment says; if it fails, codegen changed and the doc must change with it.
#[test]
fn safe_ref_stores_the_cursor_every_iteration() {
    let b = body("local-index/safe-ref", "hotloops_local_index_safe_ref");
    let uses = structure::slot_use_in_loops(&b, II);
    assert!(uses.iter().any(|u| u.stores >= 1 && u.loads >= 1), "safe-ref: expected a store and a reload of itemIndex per iteration: {uses:?}\n{b}");
}

#[test]
fn opaque_checkkeys_chases_two_dependent_loads() {
    let scan_opaque = offset_of!(hotloops::pg::nbtree::IndexScanDesc, opaque) as i64;
    let dir = CURR_POS_DIR_OFFSET as i64;
    let op = body("dir-by-value/opaque", "hl_dir_by_value_opaque_checkkeys");
    assert!(structure::has_dependent_load(&op, scan_opaque, dir), "opaque must load scan->opaque ([+{scan_opaque}]) then ->currPos.dir ([+{dir}]):\n{op}");
    let bv = body("dir-by-value/by-value", "hl_dir_by_value_by_value_checkkeys");
    assert!(!structure::has_dependent_load(&bv, scan_opaque, dir), "by-value must not chase scan->opaque->currPos.dir:\n{bv}");
    assert!(bv.contains("dword ptr [rsi]"), "by-value reads pstate->dir, the first field of its second argument:\n{bv}");
}

/// `runs` coalesces a leaf's span with the open record in registers: its B-tree kernel has an
/// innermost loop (a back edge over a contiguous run of blocks) that calls nothing, stores
/// nothing and sets the TID's bit (`bts`, or a shift and `or`) in a dozen instructions at most.
/// If this fails, the loop spilled its record or grew, and the module doc's count must change.
#[test]
fn runs_coalesces_in_registers() {
    let b = body("tid-batch/runs", "hl_tid_batch_runs_btree");
    let cfg = structure::Cfg::parse(&b);
    let tight = cfg.blocks.iter().enumerate().flat_map(|(end, blk)| blk.succ.iter().map(move |&h| (h, end))).filter(|&(h, end)| h <= end).any(|(h, end)| {
        let insns: Vec<_> = cfg.blocks[h..=end].iter().flat_map(|b| &b.insns).collect();
        let stores = insns.iter().any(|i| i.args.split(',').next().is_some_and(|d| d.contains('[')) && !matches!(i.op.as_str(), "cmp" | "test"));
        let sets_bit = insns.iter().any(|i| i.op == "bts" || i.op == "or");
        insns.len() <= 12 && !stores && sets_bit && !insns.iter().any(|i| i.is_call())
    });
    assert!(tight, "no store-free, call-free coalescing loop of <= 12 instructions in runs:\n{b}");
}
