//! The compiler matrix of a study, per case that ran C rows: variants down (the Rust kernels,
//! then each C kernel once), configurations across (`rust`, then every C configuration in the
//! report, in [`crate::ckernels::CONFIGS`] order), each cell the wall-clock ratio against the
//! study's baseline and the instructions per item (callgrind, inclusive).
//!
//! Built from the report's rows alone, so it reads any `report.json`: a row's configuration
//! is the registry's ([`crate::study::Variant::config`]) when the id is known here, else the
//! id's `@<config>` suffix (a C id without one is the canonical configuration's).
//!
//! Why C rows of other configurations are rows `<id>@<config>` rather than a dimension beside
//! the registry: every (kernel, configuration) then has an id that a worker process, callgrind
//! and the benches resolve like any other row, and the matrix is only a view of those rows.

use super::table::{Align, Table};
use super::{Report, Row, StudyReport};
use crate::ckernels::{CANONICAL, CONFIGS};

/// The column of the Rust kernels.
pub const RUST: &str = "rust";

/// (kernel id without configuration, configuration or [`RUST`]) of a row's variant id.
pub fn split(id: &str) -> (String, String) {
    if let Ok((_, v)) = crate::study::variant(id) {
        return (v.base_id().to_string(), if v.is_c() { v.config.to_string() } else { RUST.to_string() });
    }
    match id.split_once('@') {
        Some((base, cfg)) => (base.to_string(), cfg.to_string()),
        None if id.split_once('/').is_some_and(|(_, v)| v.starts_with("c-")) => (id.to_string(), CANONICAL.to_string()),
        None => (id.to_string(), RUST.to_string()),
    }
}

/// One cell: the time ratio (`1` for the baseline; `~` when not resolved) and instructions per
/// item, or `-` where the report has neither.
fn cell(rows: &[&Row], id: &str, baseline: &str) -> String {
    let wall = rows.iter().find(|r| r.variant == id && r.metric == "wall-clock");
    let time = match wall {
        _ if id == baseline => Some("1 (baseline)".to_string()),
        Some(w) => w.ratio.map(|r| {
            let resolved = w.verdict.is_some_and(|v| v != crate::measure::wallclock::Verdict::NotResolved);
            format!("{}{r:.3}", if resolved { "" } else { "~" })
        }),
        None => None,
    };
    let instr = rows.iter().find(|r| r.variant == id && r.metric == "instructions").map(|r| format!("{:.2}", r.value));
    match (time, instr) {
        (None, None) => "-".into(),
        (t, i) => format!("{} · {}", t.unwrap_or_else(|| "-".into()), i.unwrap_or_else(|| "-".into())),
    }
}

/// The matrix section of study `s` (empty when no case ran a C row).
pub fn markdown(r: &Report, s: &StudyReport) -> String {
    use std::fmt::Write as _;
    let mut m = String::new();
    for case in &s.cases {
        let rows: Vec<&Row> = r.rows.iter().filter(|x| x.study == s.name && x.case == case.name).collect();
        let mut kernels: Vec<String> = Vec::new();
        let mut configs: Vec<String> = Vec::new();
        let mut ids: Vec<(String, String, String)> = Vec::new();
        for x in rows.iter().filter(|x| x.metric == "wall-clock" || x.metric == "instructions") {
            if ids.iter().any(|i| i.0 == x.variant) {
                continue;
            }
            let (base, cfg) = split(&x.variant);
            if !kernels.contains(&base) {
                kernels.push(base.clone());
            }
            if !configs.contains(&cfg) {
                configs.push(cfg.clone());
            }
            ids.push((x.variant.clone(), base, cfg));
        }
        if !configs.iter().any(|c| c != RUST) {
            continue;
        }
        // rust first, then the configurations in their registry order, then any unknown ones.
        let order = |c: &String| if c == RUST { 0 } else { CONFIGS.iter().position(|k| k.name == c).map_or(usize::MAX, |p| p + 1) };
        configs.sort_by_key(order);
        let mut t = Table::new([("variant".to_string(), Align::Left)]);
        for c in &configs {
            t.column(c.clone(), Align::Right);
        }
        for k in &kernels {
            let cells = configs.iter().map(|c| match ids.iter().find(|i| &i.1 == k && &i.2 == c) {
                Some(i) => cell(&rows, &i.0, &s.baseline),
                None => String::new(),
            });
            t.row(std::iter::once(format!("`{k}`")).chain(cells));
        }
        let _ = writeln!(
            m,
            "### {} / {} / compiler matrix\n\nEach cell: time / the baseline's (`{}`) (paired median ratio; `~` not resolved against the A/A floor) · instructions per {} (callgrind, inclusive, test size).\n\n{}",
            s.name,
            case.name,
            s.baseline,
            s.unit,
            t.render()
        );
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_split_into_kernel_and_configuration() {
        assert_eq!(split("local-index/store-each"), ("local-index/store-each".into(), RUST.into()));
        assert_eq!(split("local-index/c-span"), ("local-index/c-span".into(), CANONICAL.into()));
        // Unknown here (another build's report): read from the id.
        assert_eq!(split("local-index/c-span@clang99-x"), ("local-index/c-span".into(), "clang99-x".into()));
        assert_eq!(split("other/c-thing"), ("other/c-thing".into(), CANONICAL.into()));
        assert_eq!(split("other/thing"), ("other/thing".into(), RUST.into()));
    }
}

/// A C configuration as a report records it (provenance): what built its rows, or why not.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct CConfigUsed {
    /// `gcc12-pg`.
    pub name: String,
    /// Its rows ran in this report.
    pub ran: bool,
    /// Compiler executable and `--version` line (empty when not built).
    pub compiler: String,
    /// The configuration's flags, verbatim.
    pub flags: String,
    /// Why it was skipped, or a caveat.
    pub note: String,
}

/// Every configuration of this build, marking those whose rows ran.
pub fn configs_used(ran: &[&str]) -> Vec<CConfigUsed> {
    CONFIGS
        .iter()
        .map(|c| CConfigUsed {
            name: c.name.into(),
            ran: ran.contains(&c.name),
            compiler: if c.built { format!("{} ({})", c.compiler, c.version) } else { String::new() },
            flags: c.flags.into(),
            note: c.note.into(),
        })
        .collect()
}

/// Provenance lines of the report's C configurations: (label, text).
pub fn provenance_rows(configs: &[CConfigUsed]) -> Vec<[String; 2]> {
    configs
        .iter()
        .map(|c| {
            let what = if c.compiler.is_empty() { format!("not built: {}", c.note) } else { format!("{}; flags `{}`", c.compiler, c.flags) };
            [format!("C {}{}", c.name, if c.ran { "" } else { " (rows not run)" }), what]
        })
        .collect()
}
