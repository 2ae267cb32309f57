//! The registry's promises: ids are slash-namespaced and unique, the baseline comes first, every
//! row's kernel pointer is the function its `kernel` symbol names (so two rows whose kernels
//! were swapped fail here), every kernel has a snapshot, and every case catalogue is usable.

use hotloops::study::{self, STUDIES, Size};
use object::{Object, ObjectSymbol};
use std::collections::{BTreeSet, HashMap};

#[test]
fn ids_are_namespaced_unique_and_baselines_come_first() {
    let mut seen = BTreeSet::new();
    for s in STUDIES {
        let i = s.info();
        assert_eq!(i.variants[0].id, i.baseline, "{}: the naive baseline is the first variant", i.name);
        assert!(i.variant(i.patched).is_ok(), "{}: the feature's variant must be registered", i.name);
        for v in i.variants {
            assert!(v.id.starts_with(&format!("{}/", i.name)), "{} is not under {}/", v.id, i.name);
            assert!(seen.insert(v.id), "duplicate id {}", v.id);
            assert!(v.kernel.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{}", v.kernel);
            assert!(v.helpers.iter().all(|h| h.starts_with("hl_")), "{}: helpers are hl_* symbols", v.id);
            if !v.owns_kernel() {
                assert!(!v.setup.is_empty(), "{} shares {} and must say what its setup changes", v.id, v.kernel);
                let owner = study::kernel_owner(v);
                assert!(owner.owns_kernel() && owner.id.starts_with(&format!("{}/", i.name)), "{}: its kernel's owner is {}", v.id, owner.id);
            }
        }
    }
}

/// A symbol of this test binary whose address we know: the load bias of a PIE.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn hotloops_registry_test_anchor() -> u32 {
    std::hint::black_box(7)
}

/// Function symbols of this binary by address (bias applied).
fn symbols_by_address() -> HashMap<usize, Vec<String>> {
    let exe = std::env::current_exe().unwrap();
    let data = std::fs::read(&exe).unwrap();
    let file = object::File::parse(&*data).unwrap();
    let mut by_name = HashMap::new();
    for sym in file.symbols() {
        if let Ok(name) = sym.name() {
            by_name.insert(name.to_string(), sym.address());
        }
    }
    let anchor = by_name["hotloops_registry_test_anchor"] as usize;
    let bias = (hotloops_registry_test_anchor as *const () as usize).wrapping_sub(anchor);
    let mut out: HashMap<usize, Vec<String>> = HashMap::new();
    for (name, addr) in by_name {
        if addr != 0 {
            out.entry((addr as usize).wrapping_add(bias)).or_default().push(name);
        }
    }
    out
}

/// Dispatch comes from each row's function pointer: it must be the function the row's
/// `kernel` names. Swapping two rows' kernels (or pointing a row at another study's kernel)
/// fails here even though every digest would still agree.
#[test]
fn every_rows_kernel_pointer_is_its_named_symbol() {
    let syms = symbols_by_address();
    for s in STUDIES {
        for v in s.info().variants {
            let at = v.spec.entry();
            let names = syms.get(&at).unwrap_or_else(|| panic!("{}: its kernel pointer {at:#x} is no symbol of this binary", v.id));
            assert!(
                names.iter().any(|n| n == v.kernel),
                "{}: the row names kernel {} but its spec calls {:?}",
                v.id,
                v.kernel,
                names
            );
        }
    }
}

#[test]
fn every_kernel_has_one_snapshot_and_shared_kernels_share_it() {
    let dir = hotloops::asm::snapshot_dir();
    for k in study::kernels() {
        let p = dir.join(study::snapshot_path(k));
        assert!(p.is_file(), "{} has no snapshot at {}", k.kernel, p.display());
    }
    for s in STUDIES {
        for v in s.info().variants {
            assert_eq!(study::snapshot_path(v), study::snapshot_path(study::kernel_owner(v)), "{}", v.id);
        }
    }
}

#[test]
fn case_catalogues_are_unique_and_unknown_names_list_the_valid_ones() {
    for s in STUDIES {
        let i = s.info();
        assert!(!i.cases.is_empty(), "{} has no cases", i.name);
        let ids: BTreeSet<_> = i.cases.iter().map(|c| c.id).collect();
        assert_eq!(ids.len(), i.cases.len(), "{}: duplicate case ids", i.name);
        for c in i.cases {
            let last = c.id.rsplit('-').next().unwrap_or(c.id);
            let sized = last.len() > 1 && last.ends_with(['M', 'k']) && last[..last.len() - 1].chars().all(|ch| ch.is_ascii_digit());
            assert!(!sized, "{}: a case id carries no size (rows are an attribute of the run)", c.id);
        }
        let e = match study::build_case(*s, "no-such-case", Size::Test) {
            Ok(_) => panic!("{}: an unknown case was built", i.name),
            Err(e) => e.to_string(),
        };
        for c in i.cases {
            assert!(e.contains(c.id), "{}: the error lists {}: {e}", i.name, c.id);
        }
        let e = i.variant("no-such-variant").unwrap_err().to_string();
        assert!(e.contains(i.baseline), "{e}");
    }
}

#[test]
fn every_feature_in_cargo_toml_switches_a_study() {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    for s in STUDIES {
        let f = s.info().feature;
        assert!(toml.contains(&format!("{f} = []")), "feature {f} missing from Cargo.toml");
    }
    // The features the provenance reports are the studies' own.
    let on = study::features_enabled();
    for f in &on {
        assert!(STUDIES.iter().any(|s| s.info().feature == f), "{f}");
    }
}
