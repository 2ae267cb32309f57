//! Asm snapshots of the C kernels (`asm-snapshots/<study>/c-<variant>@<config>.s`): the
//! compiler's own `-S` output (build.rs), normalised, diffed against the checked-in files;
//! then the mechanisms each finding rests on, read from the snapshots' loops per configuration.
//! Re-bless after reviewing a diff: `HOTLOOPS_BLESS=1 cargo test --release --test ckernels_asm`
//! (scripts/bless-asm.sh does it with the Rust snapshots).

use hotloops::asm::{self, c as casm, structure};
use hotloops::ckernels::{self, CKernel, CONFIGS, CROSS_CONFIGS};
use hotloops::pg::nbtree::{CURR_POS_DIR_OFFSET, CURR_POS_ITEM_INDEX_OFFSET, CURR_POS_LAST_ITEM_OFFSET, IndexScanDesc};
use std::mem::offset_of;

const II: i64 = CURR_POS_ITEM_INDEX_OFFSET as i64;
const LI: i64 = CURR_POS_LAST_ITEM_OFFSET as i64;

fn kernel(id: &str, config: &str) -> Option<&'static CKernel> {
    ckernels::kernels().find(|k| k.id == id && k.config == config)
}

/// The checked-in snapshot of (id, config), or None when that configuration is not built here.
fn snapshot(id: &str, config: &str) -> Option<String> {
    let k = kernel(id, config)?;
    let p = casm::snapshot_file(&asm::snapshot_dir(), k);
    Some(std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}; bless with HOTLOOPS_BLESS=1 cargo test --release --test ckernels_asm", p.display())))
}

fn body(id: &str, config: &str, symbol: &str) -> Option<String> {
    let s = snapshot(id, config)?;
    Some(asm::symbol_body(&s, symbol).unwrap_or_else(|| panic!("{symbol} not in the snapshot of {id}@{config}:\n{s}")).to_string())
}

fn built() -> Vec<&'static str> {
    CONFIGS.iter().filter(|c| c.built).map(|c| c.name).collect()
}

#[test]
fn c_snapshots_match_fresh_codegen() {
    let bless = std::env::var_os("HOTLOOPS_BLESS").is_some();
    let dir = asm::snapshot_dir();
    let mut failures = String::new();
    for k in ckernels::kernels() {
        let fresh = casm::generate(k).unwrap_or_else(|e| panic!("generating {}@{}: {e:#}", k.id, k.config));
        let p = casm::snapshot_file(&dir, k);
        if bless {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let tmp = p.with_extension("s.tmp");
            std::fs::write(&tmp, &fresh).unwrap();
            std::fs::rename(&tmp, &p).unwrap();
            continue;
        }
        match std::fs::read_to_string(&p) {
            Ok(old) => failures.push_str(&asm::unified_diff(&format!("asm-snapshots/{}", k.snapshot_path()), &old, "fresh", &fresh)),
            Err(_) => failures.push_str(&format!("asm-snapshots/{} is missing\n", k.snapshot_path())),
        }
    }
    // The cross configurations' kernels (gcc12-pg-arm64): diffed when the cross compiler is
    // installed here, left as checked in otherwise.
    for k in ckernels::cross_kernels() {
        let p = casm::cross_snapshot_file(&dir, k);
        let fresh = match casm::generate_cross(k) {
            Ok(f) => f,
            Err(e) => {
                assert!(!ckernels::config(k.config).unwrap().built, "generating {}: {e:#}", k.row_id());
                continue;
            }
        };
        if bless {
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            let tmp = p.with_extension("s.tmp");
            std::fs::write(&tmp, &fresh).unwrap();
            std::fs::rename(&tmp, &p).unwrap();
            continue;
        }
        match std::fs::read_to_string(&p) {
            Ok(old) => failures.push_str(&asm::unified_diff(&format!("asm-snapshots/{}", k.snapshot_path()), &old, "fresh", &fresh)),
            Err(_) => failures.push_str(&format!("asm-snapshots/{} is missing\n", k.snapshot_path())),
        }
    }
    // A C snapshot whose kernel or configuration no longer exists is stale; one of a known
    // configuration that is not built here (clang-19 absent) is left alone.
    for study in std::fs::read_dir(&dir).unwrap().flatten() {
        for f in std::fs::read_dir(study.path()).into_iter().flatten().flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            let Some((variant, config)) = name.strip_suffix(".s").and_then(|n| n.split_once('@')) else { continue };
            let id = format!("{}/{variant}", study.file_name().to_string_lossy());
            let known_config = CONFIGS.iter().chain(CROSS_CONFIGS).any(|c| c.name == config);
            if !known_config || !ckernels::variant_ids().contains(&id.as_str()) {
                failures.push_str(&format!("asm-snapshots/{id}@{config}.s belongs to no C kernel or configuration\n"));
            }
        }
    }
    for c in CONFIGS.iter().chain(CROSS_CONFIGS).filter(|c| !c.built) {
        eprintln!("note: C configuration {} not checked: {}", c.name, c.note);
    }
    assert!(failures.is_empty(), "C code generation changed:\n{failures}\nReview; if intended, re-bless with HOTLOOPS_BLESS=1 cargo test --release --test ckernels_asm");
}

#[test]
fn snapshot_headers_name_compiler_version_and_flags() {
    for k in ckernels::kernels() {
        let s = snapshot(k.id, k.config).unwrap();
        let c = ckernels::config(k.config).unwrap();
        assert!(s.contains(&format!("# compiler: {}", c.version)) && s.contains(&format!("# flags: {}", c.flags)), "{}@{}", k.id, k.config);
    }
}

/// c-store-each: with the flush inside the copy loop, every configuration loads and stores
/// itemIndex in the loop (the call is the cause, not the aliasing flag).
#[test]
fn c_store_each_keeps_the_cursor_in_memory_under_every_config() {
    for cfg in built() {
        let b = body("local-index/c-store-each", cfg, "hotloops_local_index_c_store_each").unwrap();
        let uses = structure::slot_use_in_loops(&b, II);
        assert!(uses.iter().any(|u| u.loads >= 1 && u.stores >= 1), "{cfg}: c-store-each must load and store [so + {II}] in its copy loop: {uses:?}\n{b}");
    }
}

/// c-local: the cursor in locals stays out of memory in the copy loop everywhere.
#[test]
fn c_local_keeps_the_cursor_in_registers_under_every_config() {
    for cfg in built() {
        let b = body("local-index/c-local", cfg, "hotloops_local_index_c_local").unwrap();
        assert!(!structure::Cfg::parse(&b).call_free_loops().is_empty(), "{cfg}: no call-free loop\n{b}");
        for (slot, name) in [(II, "itemIndex"), (LI, "lastItem")] {
            let uses = structure::slot_use_in_loops(&b, slot);
            assert!(uses.iter().all(|u| u.loads == 0 && u.stores == 0), "{cfg}: c-local's loop touches {name}: {uses:?}\n{b}");
        }
    }
}

/// c-span: the call-free copy loop, where the aliasing flag alone decides: registers under
/// gcc -fstrict-aliasing, memory under PostgreSQL's -fno-strict-aliasing (gcc12-pg,
/// gcc12-upstream) and under clang with either (the packed TID copy is a char-aliasing memcpy).
#[test]
fn c_span_cursor_in_registers_only_under_gcc_strict_aliasing() {
    for cfg in built() {
        let b = body("local-index/c-span", cfg, "hotloops_local_index_c_span").unwrap();
        let uses = structure::slot_use_in_loops(&b, II);
        assert!(!uses.is_empty(), "{cfg}: c-span has no call-free loop\n{b}");
        // A load or a store of the cursor in the loop is the cursor in memory: gcc under strict
        // aliasing still stores it every TID when a call follows on a rare path.
        let in_memory = uses.iter().any(|u| u.loads >= 1 || u.stores >= 1);
        let expect_memory = cfg != "gcc12-strict";
        assert_eq!(in_memory, expect_memory, "{cfg}: c-span's copy loop {} itemIndex [so + {II}] in memory: {uses:?}\n{b}", if expect_memory { "must keep" } else { "must not keep" });
    }
}

/// c-opaque's _bt_checkkeys loads scan->opaque then ->currPos.dir; c-by-value does not, and
/// reads pstate->dir (its second argument's first field) instead.
#[test]
fn c_opaque_checkkeys_chases_two_dependent_loads() {
    let scan_opaque = offset_of!(IndexScanDesc, opaque) as i64;
    let dir = CURR_POS_DIR_OFFSET as i64;
    for cfg in built() {
        let op = body("dir-by-value/c-opaque", cfg, "hl_dir_by_value_c_opaque_checkkeys").unwrap();
        assert!(structure::has_dependent_load(&op, scan_opaque, dir), "{cfg}: c-opaque must load [scan + {scan_opaque}] then [that + {dir}]:\n{op}");
        let bv = body("dir-by-value/c-by-value", cfg, "hl_dir_by_value_c_by_value_checkkeys").unwrap();
        assert!(!structure::has_dependent_load(&bv, scan_opaque, dir), "{cfg}: c-by-value must not chase scan->opaque->currPos.dir:\n{bv}");
        assert!(bv.contains("dword ptr [rsi]"), "{cfg}: c-by-value reads pstate->dir ([rsi]):\n{bv}");
    }
}

/// Debian's -fstack-protector-strong puts a canary (fs:[40]) into gcc's _bt_checkkeys, whose
/// `ikey` has its address taken, on every tuple; PostgreSQL's own flags do not.
#[test]
fn stack_protector_canary_in_gcc_checkkeys_under_debian_flags() {
    for cfg in built().into_iter().filter(|c| c.starts_with("gcc")) {
        for (id, f) in [("dir-by-value/c-opaque", "hl_dir_by_value_c_opaque_checkkeys"), ("dir-by-value/c-by-value", "hl_dir_by_value_c_by_value_checkkeys")] {
            let b = body(id, cfg, f).unwrap();
            let canary = b.contains("fs:[40]");
            let debian = ckernels::config(cfg).unwrap().flags.contains("-fstack-protector-strong");
            assert_eq!(canary, debian, "{cfg} {f}: canary {canary}, Debian flags {debian}:\n{b}");
        }
    }
}

/// tid-batch c-per-tid (master's btgetbitmap): the per-TID loop, whose only call is
/// `tbm_add_tuples`, loads and stores `so->currPos.itemIndex` every TID under every
/// configuration (the call into another translation unit keeps it in memory); c-batched's
/// call-free copy loop touches neither itemIndex nor lastItem anywhere (the cursor in locals).
#[test]
fn tid_batch_c_per_tid_cursor_in_memory_c_batched_in_registers() {
    for cfg in built() {
        let b = body("tid-batch/c-per-tid", cfg, "hotloops_tid_batch_c_per_tid").unwrap();
        let g = structure::Cfg::parse(&b);
        let only_the_sink: Vec<bool> = g
            .blocks
            .iter()
            .map(|bl| bl.insns.iter().filter(|i| i.op == "call").all(|i| i.args.trim().trim_end_matches("@PLT") == "hl_tbm_add_tuples"))
            .collect();
        let loops = g.loops_within(&only_the_sink);
        assert!(!loops.is_empty(), "{cfg}: c-per-tid has no per-TID loop around tbm_add_tuples\n{b}");
        let in_memory = loops.iter().any(|l| {
            let (ld, st) = g.insns(l).fold((0, 0), |(ld, st), i| (ld + usize::from(i.reads_disp(II).is_some()), st + usize::from(i.writes_disp(II).is_some())));
            ld >= 1 && st >= 1
        });
        assert!(in_memory, "{cfg}: c-per-tid must load and store [so + {II}] in its per-TID loop\n{b}");

        let b = body("tid-batch/c-batched", cfg, "hotloops_tid_batch_c_batched").unwrap();
        assert!(!structure::Cfg::parse(&b).call_free_loops().is_empty(), "{cfg}: c-batched has no call-free copy loop\n{b}");
        for (slot, name) in [(II, "itemIndex"), (LI, "lastItem")] {
            let uses = structure::slot_use_in_loops(&b, slot);
            assert!(uses.iter().all(|u| u.loads == 0 && u.stores == 0), "{cfg}: c-batched's copy loop touches {name}: {uses:?}\n{b}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// arm64 (gcc12-pg-arm64: aarch64-linux-gnu-gcc 12 under Debian arm64 PostgreSQL 15's flags).

/// The bodies of `symbol` in `id`'s arm64 code: the checked-in snapshot's (always) and, where
/// the cross compiler is installed, the fresh `-S` output's, so that a mechanism removed from
/// the C fails here without a re-bless.
fn arm64_bodies(id: &str, symbol: &str) -> Vec<(&'static str, String)> {
    let k = ckernels::cross_kernel(&format!("{id}@{}", ckernels::ARM64)).unwrap_or_else(|| panic!("no arm64 kernel {id}"));
    let p = casm::cross_snapshot_file(&asm::snapshot_dir(), k);
    let snap = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}; bless with HOTLOOPS_BLESS=1 cargo test --release --test ckernels_asm", p.display()));
    assert!(casm::is_aarch64_snapshot(&snap), "{} does not say it is AArch64", p.display());
    let mut out = vec![("checked-in", snap)];
    match casm::generate_cross(k) {
        Ok(fresh) => out.push(("fresh", fresh)),
        Err(e) => eprintln!("note: {id}@{}: fresh codegen not checked: {e:#}", ckernels::ARM64),
    }
    out.into_iter()
        .map(|(what, s)| (what, asm::symbol_body(&s, symbol).unwrap_or_else(|| panic!("{symbol} not in the {what} arm64 code of {id}:\n{s}")).to_string()))
        .collect()
}

/// arm64 c-store-each: the flush call in the copy loop keeps itemIndex in memory, as on x86:
/// `ldr w3, [x19, 132]` and `str w3, [x19, 132]` in the call-free copy loop.
#[test]
fn arm64_c_store_each_stores_and_reloads_the_cursor_in_its_copy_loop() {
    for (what, b) in arm64_bodies("local-index/c-store-each", "hotloops_local_index_c_store_each") {
        let uses = structure::slot_use_in_loops(&b, II);
        assert!(uses.iter().any(|u| u.loads >= 1 && u.stores >= 1), "{what}: arm64 c-store-each must load and store [so, {II}] in its copy loop: {uses:?}\n{b}");
        assert!(b.contains(&format!(", {II}]")), "{what}: {b}");
    }
}

/// arm64 c-local: the cursor in locals stays in registers in the copy loop (itemIndex and
/// lastItem are read by one `ldp` before it and itemIndex stored once after it).
#[test]
fn arm64_c_local_keeps_the_cursor_in_registers() {
    for (what, b) in arm64_bodies("local-index/c-local", "hotloops_local_index_c_local") {
        assert!(!structure::Cfg::parse(&b).call_free_loops().is_empty(), "{what}: no call-free loop\n{b}");
        for (slot, name) in [(II, "itemIndex"), (LI, "lastItem")] {
            let uses = structure::slot_use_in_loops(&b, slot);
            assert!(uses.iter().all(|u| u.loads == 0 && u.stores == 0), "{what}: arm64 c-local's loop touches {name}: {uses:?}\n{b}");
        }
    }
}

/// arm64 c-opaque's _bt_checkkeys: `ldr x, [x0, 56]` (scan->opaque) then `ldr w, [that, 112]`
/// (currPos.dir); c-by-value's has no such chain and reads pstate->dir from its second
/// argument (`[x1]`).
#[test]
fn arm64_c_opaque_checkkeys_chases_two_dependent_loads() {
    let scan_opaque = offset_of!(IndexScanDesc, opaque) as i64;
    let dir = CURR_POS_DIR_OFFSET as i64;
    for (what, op) in arm64_bodies("dir-by-value/c-opaque", "hl_dir_by_value_c_opaque_checkkeys") {
        assert!(structure::has_dependent_load(&op, scan_opaque, dir), "{what}: arm64 c-opaque must load [scan, {scan_opaque}] then [that, {dir}]:\n{op}");
    }
    for (what, bv) in arm64_bodies("dir-by-value/c-by-value", "hl_dir_by_value_c_by_value_checkkeys") {
        assert!(!structure::has_dependent_load(&bv, scan_opaque, dir), "{what}: arm64 c-by-value must not chase scan->opaque->currPos.dir:\n{bv}");
        assert!(bv.contains(", [x1]"), "{what}: arm64 c-by-value reads pstate->dir ([x1]):\n{bv}");
    }
}

/// arm64 tid-batch, as on x86: c-per-tid's per-TID loop around tbm_add_tuples loads and stores
/// itemIndex (below: c-batched's call-free copy loop touches neither cursor field).
#[test]
fn arm64_tid_batch_c_per_tid_keeps_the_cursor_in_memory() {
    for (what, b) in arm64_bodies("tid-batch/c-per-tid", "hotloops_tid_batch_c_per_tid") {
        let g = structure::Cfg::parse(&b);
        let only_the_sink: Vec<bool> =
            g.blocks.iter().map(|bl| bl.insns.iter().filter(|i| i.is_call()).all(|i| i.args.trim() == "hl_tbm_add_tuples")).collect();
        let loops = g.loops_within(&only_the_sink);
        let in_memory = loops.iter().any(|l| {
            let (ld, st) = g.insns(l).fold((0, 0), |(ld, st), i| (ld + usize::from(i.reads_disp(II).is_some()), st + usize::from(i.writes_disp(II).is_some())));
            ld >= 1 && st >= 1
        });
        assert!(in_memory, "{what}: arm64 c-per-tid must load and store [so, {II}] in its per-TID loop\n{b}");
    }
}

/// arm64 tid-batch c-batched: the cursor in locals, its copy loop touches neither cursor field.
#[test]
fn arm64_tid_batch_c_batched_keeps_the_cursor_in_registers() {
    for (what, b) in arm64_bodies("tid-batch/c-batched", "hotloops_tid_batch_c_batched") {
        assert!(!structure::Cfg::parse(&b).call_free_loops().is_empty(), "{what}: no call-free copy loop\n{b}");
        for (slot, name) in [(II, "itemIndex"), (LI, "lastItem")] {
            let uses = structure::slot_use_in_loops(&b, slot);
            assert!(uses.iter().all(|u| u.loads == 0 && u.stores == 0), "{what}: arm64 c-batched's copy loop touches {name}: {uses:?}\n{b}");
        }
    }
}

/// Debian arm64's -fstack-protector-strong canary: on AArch64 it is `__stack_chk_guard`
/// (through the GOT), in both _bt_checkkeys (their `ikey` has its address taken).
#[test]
fn arm64_checkkeys_carry_the_stack_protector_canary() {
    assert!(ckernels::config(ckernels::ARM64).unwrap().flags.contains("-fstack-protector-strong"));
    for (id, f) in [("dir-by-value/c-opaque", "hl_dir_by_value_c_opaque_checkkeys"), ("dir-by-value/c-by-value", "hl_dir_by_value_c_by_value_checkkeys")] {
        for (what, b) in arm64_bodies(id, f) {
            assert!(b.contains("__stack_chk_guard"), "{what} {f}: no canary\n{b}");
        }
    }
}

/// The arm64 configuration's flags are Debian arm64's `pg_config --cflags` + `--cppflags`:
/// amd64's with `-moutline-atomics` and without `-fno-omit-frame-pointer` (csrc/README.md).
#[test]
fn arm64_flags_differ_from_amd64_where_debian_arm64_does() {
    let arm = ckernels::config(ckernels::ARM64).unwrap();
    let amd = ckernels::config(ckernels::CANONICAL).unwrap();
    assert!(arm.is_aarch64() && !amd.is_aarch64());
    let a: Vec<&str> = arm.flags.split_whitespace().collect();
    let x: Vec<&str> = amd.flags.split_whitespace().filter(|f| *f != "-fno-omit-frame-pointer").collect();
    assert_eq!(a.iter().filter(|f| **f != "-moutline-atomics").copied().collect::<Vec<_>>(), x);
    assert!(a.contains(&"-moutline-atomics") && !a.contains(&"-fno-omit-frame-pointer"));
}
