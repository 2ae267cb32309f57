//! The registry's promises: ids are slash-namespaced and unique, every id has a snapshot path,
//! a symbol, and a benchmark in benches/instructions.rs.

use hotloops::study::{self, STUDIES};
use std::collections::BTreeSet;

#[test]
fn ids_are_namespaced_unique_and_baselines_come_first() {
    let mut seen = BTreeSet::new();
    for s in STUDIES {
        let i = s.info();
        assert_eq!(i.variants[0].id, i.baseline, "{}: the naive baseline is the first variant", i.name);
        assert!(i.index_of(i.patched).is_some(), "{}: the feature's variant must be registered", i.name);
        for v in i.variants {
            assert!(v.id.starts_with(&format!("{}/", i.name)), "{} is not under {}/", v.id, i.name);
            assert!(seen.insert(v.id), "duplicate id {}", v.id);
            assert!(study::symbol_of(v.id).chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        }
    }
}

#[test]
fn every_variant_has_an_instruction_bench() {
    let benches = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/instructions.rs")).unwrap();
    for id in study::all_ids() {
        assert!(benches.contains(&format!("\"{id}\"")), "benches/instructions.rs has no bench for {id}: add it to a kernel_benches! line");
    }
}

#[test]
fn every_feature_in_cargo_toml_switches_a_study() {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    for s in STUDIES {
        let f = s.info().feature;
        assert!(toml.contains(&format!("{f} = []")), "feature {f} missing from Cargo.toml");
    }
}
