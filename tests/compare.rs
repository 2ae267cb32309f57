//! `compare` lines up reports of different sizes row by row: case ids are the same at every
//! size, and each column says the size it ran at.

use std::process::Command;

fn hotloops() -> Command {
    Command::new(env!("CARGO_BIN_EXE_hotloops"))
}

#[test]
fn a_quick_and_a_test_size_report_match_every_row_by_case() {
    let dir = tempfile::tempdir().unwrap();
    for (name, size) in [("small", "test"), ("quick", "quick")] {
        let o = hotloops()
            .args(["report", "--study", "dir-by-value", "--size", size, "--no-instructions", "--budget-ms", "40", "--out"])
            .arg(dir.path().join(name))
            // Core locks of its own: another report on this host must not refuse this one.
            .env("HOTLOOPS_LOCK_DIR", dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{size}: {}", String::from_utf8_lossy(&o.stderr));
    }
    let out = dir.path().join("c");
    let o = hotloops().arg("compare").arg(dir.path().join("small/report.json")).arg(dir.path().join("quick/report.json")).arg("--out").arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(md.contains("test size") && md.contains("quick size"), "each column states its size:\n{md}");
    assert!(!md.contains("not measured"), "every row of one report has its row in the other:\n{md}");
    for case in ["range-2000/0-keys", "range-2000/1-key", "range-15000/0-keys", "range-15000/1-key"] {
        assert!(md.contains(case), "{case} missing:\n{md}");
    }
}
