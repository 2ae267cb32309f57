//! `pg ab`'s files: `ab.json` (everything, with provenance), `ab.md` (the verdict first, then
//! every metric, statement, layout and epoch, the instructions and the asm of the patch) and
//! `ab.svg` (the per-block ratios of B/A and of the A/A).

use super::table::{Align, Table};
use crate::pgserver::ab::{AbResult, METRICS};
use anyhow::Result;
use std::path::Path;

fn pct(r: f64) -> String {
    if r.is_finite() { format!("{:+.2}%", (r - 1.0) * 100.0) } else { "-".into() }
}

fn iv(lo: f64, hi: f64) -> String {
    format!("[{}, {}]", pct(lo), pct(hi))
}

fn metric_desc(name: &str, r: &AbResult) -> String {
    match name {
        "node" => "the plan node's time (EXPLAIN ANALYZE)".into(),
        "latency" => "the client's latency a statement".into(),
        "cpu" => "the backend's CPU time a statement".into(),
        _ => format!("pgbench's time a transaction, {} clients", r.clients),
    }
}

/// What the instruction counts of one build's layouts say: equal (the layouts moved code, not
/// what it runs), equal but for a handful (something hashes addresses), or different.
pub fn layout_check(layouts: &[(String, Vec<u64>)]) -> String {
    let base = &layouts[0].1;
    let (mut most, mut rel) = (0u64, 0f64);
    for (_, v) in &layouts[1..] {
        for (x, y) in v.iter().zip(base) {
            most = most.max(x.abs_diff(*y));
            rel = rel.max(x.abs_diff(*y) as f64 / (*y).max(1) as f64);
        }
    }
    if most == 0 {
        "equal: the layouts moved the code, not what it runs".into()
    } else if rel < 1e-5 {
        format!("equal but for at most {most} instructions a statement ({rel:.1e} of them): the same code; a few instructions' counts depend on addresses (ResourceOwner hashes the address of each resource's kind, a static struct that moves with the layout)")
    } else {
        format!("they differ by up to {most} instructions a statement ({:.3}%): the layouts changed more than addresses", rel * 100.0)
    }
}

/// The Markdown of a run.
pub fn markdown(r: &AbResult) -> String {
    let mut s = format!("# pg ab: `{}` against `{}` on {}\n\n", r.b.spec, r.a.spec, r.workload);
    if let Some(p) = r.primary() {
        s += &format!("**Verdict** ({}, B/A): {}.\n\n", metric_desc(&p.name, r), r.verdict);
    }
    if let Some(n) = &r.primary_note {
        s += &format!("Why this metric: {n}.\n\n");
    }
    s += &format!("Stopped: {}. Design: {}{}.\n\n", r.stopped, if r.design == "rounds" { "whole runs of each server in rounds (the shell loops' way)" } else { "statement by statement, A B (A again) palindromes rotated block by block" }, if r.clients > 1 { format!(", {} pgbench clients in slices", r.clients) } else { String::new() });
    let mut t = Table::new([("", Align::Left), ("given as", Align::Left), ("server", Align::Left), ("patches", Align::Left), ("layouts", Align::Left)]);
    for (k, x) in [("A", &r.a), ("B", &r.b)] {
        let patches = if x.patches.is_empty() { "none".to_string() } else { x.patches.iter().map(|(p, h)| format!("{p} ({})", &h[..h.len().min(12)])).collect::<Vec<_>>().join(", ") };
        t.row([k.to_string(), format!("`{}`", x.spec), x.version.trim_start_matches("postgres (PostgreSQL) ").to_string(), patches, x.layouts.iter().map(|l| l.split(':').next().unwrap_or("").to_string()).collect::<Vec<_>>().join(", ")]);
    }
    s += &t.render();
    s += &format!("\nA: {}\n\nB: {}\n", r.a.what, r.b.what);
    if r.a.cflags == r.b.cflags {
        s += &format!("\nBoth compiled with CFLAGS `{}`.\n", r.a.cflags);
    } else {
        s += &format!("\n**The two were compiled with different flags** (A: `{}`; B: `{}`): the comparison holds the flags' effect too.\n", r.a.cflags, r.b.cflags);
    }
    s += "\n## Every metric (B/A and the A/A, medians over blocks, 95% hierarchical intervals)\n\n";
    let mut t = Table::new([
        ("metric", Align::Left),
        ("A, ms a block", Align::Right),
        ("B, ms a block", Align::Right),
        ("B/A", Align::Right),
        ("95% interval", Align::Left),
        ("A/A", Align::Right),
        ("A/A interval", Align::Left),
        ("A/A floor", Align::Right),
        ("verdict", Align::Left),
    ]);
    for m in &r.metrics {
        let v = crate::pgserver::ab::verdict(&m.effect, m.floor);
        t.row([
            format!("{}{}", m.name, if m.name == r.primary { " (verdict)" } else { "" }),
            format!("{:.3}", m.medians_ms[0]),
            format!("{:.3}", m.medians_ms[1]),
            pct(m.effect.median),
            iv(m.effect.lo, m.effect.hi),
            pct(m.aa.median),
            iv(m.aa.lo, m.aa.hi),
            format!("±{:.2}%", m.floor * 100.0),
            format!("{v:?}").to_lowercase().replace("notresolved", "not resolved"),
        ]);
    }
    s += &t.render();
    if let Some(p) = r.primary() {
        s += &format!("\nBlocks: {}; each block runs every statement on A, B and A again in a palindrome. A's block time, B's and A-again's are sums over the block.\n", p.effect.n);
        if p.per_step.len() > 1 {
            s += &format!("\n## Per statement ({})\n\n", p.name);
            let mut t = Table::new([("statement", Align::Left), ("B/A", Align::Right), ("95% interval", Align::Left), ("blocks", Align::Right)]);
            for (l, e) in r.steps.iter().zip(&p.per_step) {
                t.row([format!("`{l}`"), pct(e.median), iv(e.lo, e.hi), e.n.to_string()]);
            }
            s += &t.render();
        }
        if p.per_layout.len() > 1 {
            s += &format!("\n## Per layout of A ({}): does the effect hold in every code layout?\n\n", p.name);
            let mut t = Table::new([("A's layout", Align::Left), ("B/A", Align::Right), ("95% interval", Align::Left), ("blocks", Align::Right)]);
            let names: Vec<String> = r.a.layouts.iter().map(|l| l.split(':').next().unwrap_or("").to_string()).collect();
            for (i, e) in p.per_layout.iter().enumerate() {
                t.row([names.get(i).cloned().unwrap_or_else(|| i.to_string()), pct(e.median), iv(e.lo, e.hi), e.n.to_string()]);
            }
            s += &t.render();
        }
    }
    s += "\n## Postmaster epochs\n\n";
    let per = r.per_epoch();
    let mut t = Table::new([
        ("epoch", Align::Right),
        ("A", Align::Left),
        ("B", Align::Left),
        ("A again", Align::Left),
        ("blocks", Align::Right),
        ("seconds", Align::Right),
        ("backends on core", Align::Right),
        ("B/A", Align::Right),
        ("A/A", Align::Right),
    ]);
    for (i, e) in r.epochs.iter().enumerate() {
        let (ba, aa) = per.get(i).copied().flatten().map(|(x, y)| (pct(x), pct(y))).unwrap_or(("-".into(), "-".into()));
        t.row([(i + 1).to_string(), e.layouts[0].clone(), e.layouts[1].clone(), e.layouts[2].clone(), e.blocks.to_string(), format!("{:.0}", e.seconds), e.backend_core.map(|c| c.to_string()).unwrap_or_else(|| "not pinned".into()), ba, aa]);
    }
    s += &t.render();
    if per.iter().any(Option::is_some) {
        s += &format!(
            "\nB/A and A/A per epoch: medians over the epoch's blocks ({}). Each epoch starts fresh postmasters: an epoch that stands apart in both columns moved with A's processes, not with a patch; the interval above counts epochs as replicates, so such an epoch widens it.\n",
            r.primary
        );
    }
    if let Some(w) = &r.why {
        s += "\n## Why it differs: instructions (callgrind over a single-user backend of each server, same data, each statement's second run)\n\n";
        if !w.totals.is_empty() {
            let mut t = Table::new([("statement", Align::Left), ("A", Align::Right), ("B", Align::Right), ("B - A", Align::Right), ("B/A", Align::Right)]);
            for (l, a, b) in &w.totals {
                t.row([format!("`{l}`"), a.to_string(), b.to_string(), format!("{:+}", *b as i64 - *a as i64), pct(*b as f64 / *a as f64)]);
            }
            s += &t.render();
        }
        if !w.functions.is_empty() {
            s += "\nThe functions whose own instructions differ most (all statements):\n\n";
            let mut t = Table::new([("function", Align::Left), ("A", Align::Right), ("B", Align::Right), ("B - A", Align::Right)]);
            for (n, a, b) in &w.functions {
                t.row([format!("`{n}`"), a.to_string(), b.to_string(), format!("{:+}", *b as i64 - *a as i64)]);
            }
            s += &t.render();
        } else if !w.totals.is_empty() {
            s += "\nNo function's own instructions differ between A and B.\n";
        }
        if w.a_layouts.len() > 1 {
            s += &format!(
                "\nLayout check, A's instructions a statement: {} ({}).\n",
                w.a_layouts.iter().map(|(n, v)| format!("{n} {}", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" / "))).collect::<Vec<_>>().join("; "),
                layout_check(&w.a_layouts)
            );
        }
        if !w.asm_diff.is_empty() {
            s += "\n## The patch's code (normalised asm, stock against patched)\n\n";
            s += &w.asm_diff;
        }
        for n in &w.notes {
            s += &format!("\nNote: {n}\n");
        }
    }
    let p = &r.provenance;
    s += &format!(
        "\n## Provenance\n\n- host: {} (vendor {}, family {:#x}, model {:#x}; {}), kernel {}\n- hotloops {} at {}{}, features [{}]\n- command: `{}`\n- workload: {} (fnv {}), variables {}, settings {}\n- budget {} s, target ±{}%, {:.0} s in all\n",
        p.cpu_name,
        p.cpu_vendor,
        p.cpu_family,
        p.cpu_model,
        if p.hypervisor { "a VM" } else { "bare metal" },
        p.kernel,
        p.hotloops,
        p.commit,
        if p.dirty { " (dirty)" } else { "" },
        p.features.join(", "),
        r.command,
        r.workload,
        r.workload_sha256,
        r.vars.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", "),
        r.settings.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(", "),
        r.budget_s,
        r.precision,
        r.seconds
    );
    s
}

/// The per-block plot of the primary metric.
pub fn svg(r: &AbResult) -> Result<String> {
    let m = METRICS.iter().position(|(n, _)| *n == r.primary).unwrap_or(1);
    let p = r.primary().ok_or_else(|| anyhow::anyhow!("no {} results", r.primary))?;
    let ratios = |k: usize| r.blocks.iter().map(|b| b.sums[m][k] / b.sums[m][0]).collect::<Vec<f64>>();
    let series = [
        super::plot::BlockSeries { label: "A/A (A again over A)".into(), ratios: ratios(2), median: p.aa.median, ci: (p.aa.lo, p.aa.hi), control: true },
        super::plot::BlockSeries { label: format!("B/A ({})", r.b.spec), ratios: ratios(1), median: p.effect.median, ci: (p.effect.lo, p.effect.hi), control: false },
    ];
    let starts: Vec<usize> = (0..r.blocks.len()).filter(|&i| i > 0 && r.blocks[i].epoch != r.blocks[i - 1].epoch).collect();
    super::plot::blocks_svg(&format!("{} vs {} on {} ({}), per block", r.b.spec, r.a.spec, r.workload, r.primary), &format!("{} ratio", r.primary), &series, &starts)
}

/// Write `ab.json`, `ab.md` and `ab.svg` into `out`, all or none; returns the Markdown.
pub fn write(r: &AbResult, out: &Path) -> Result<String> {
    let names = ["ab.json".to_string(), "ab.md".to_string(), "ab.svg".to_string()];
    let mut dir = crate::host::outdir::OutDir::claim(out, crate::host::outdir::Claim::new("pg ab", names))?;
    let md = markdown(r);
    let mut files = vec![(out.join("ab.json"), serde_json::to_vec_pretty(r)?), (out.join("ab.md"), md.clone().into_bytes())];
    match svg(r) {
        Ok(s) => files.push((out.join("ab.svg"), s.into_bytes())),
        Err(e) => crate::say!("pg ab: no plot: {e:#}"),
    }
    dir.replace(&files)?;
    crate::say!("pg ab: wrote {}", files.iter().map(|f| f.0.display().to_string()).collect::<Vec<_>>().join(", "));
    Ok(md)
}

/// The Markdown of a `pg seed` run: each arm's verdict line, then each arm's own page.
pub fn seed_markdown(s: &crate::pgserver::seedrun::SeedRun) -> String {
    let mut md = format!("# Seed {}: the patches against stock, built from source (`hotloops pg seed {}`)\n\n", s.seed, s.seed);
    let mut t = Table::new([("arm", Align::Left), ("A -> B", Align::Left), ("claim", Align::Right), ("B/A", Align::Right), ("95% interval", Align::Left), ("A/A floor", Align::Right), ("verdict", Align::Left)]);
    for a in &s.arms {
        let p = a.ab.primary();
        t.row([
            format!("{}{}", a.id, if a.decisive { " (decisive)" } else { "" }),
            format!("`{}` -> `{}`", a.ab.a.spec, a.ab.b.spec),
            a.claim.map(|c| format!("{c:+.2}%")).unwrap_or_else(|| "-".into()),
            p.map(|m| pct(m.effect.median)).unwrap_or_default(),
            p.map(|m| iv(m.effect.lo, m.effect.hi)).unwrap_or_default(),
            p.map(|m| format!("±{:.2}%", m.floor * 100.0)).unwrap_or_default(),
            a.ab.verdict.clone(),
        ]);
    }
    md += &t.render();
    for a in &s.arms {
        md += &format!("\n---\n\n## Arm `{}`: {}\n\nThe thread: \"{}\"\n\n", a.id, a.what, a.quote);
        md += &markdown(&a.ab).replacen("# pg ab:", "### pg ab:", 1).replace("\n## ", "\n#### ");
    }
    md
}

/// Write `pg-seed-NNN.json` and `.md` into `out`; returns the Markdown.
pub fn write_seed(s: &crate::pgserver::seedrun::SeedRun, out: &Path) -> Result<String> {
    let stem = format!("pg-seed-{}", s.seed);
    let names = [format!("{stem}.json"), format!("{stem}.md")];
    let mut dir = crate::host::outdir::OutDir::claim(out, crate::host::outdir::Claim::new(&format!("pg seed {}", s.seed), names.clone()))?;
    let md = seed_markdown(s);
    dir.replace(&[(out.join(&names[0]), serde_json::to_vec_pretty(s)?), (out.join(&names[1]), md.clone().into_bytes())])?;
    crate::say!("pg seed: wrote {} and {}", out.join(&names[0]).display(), out.join(&names[1]).display());
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgserver::ab::BlockRecord;

    /// A stored run of seven epochs (`analysis/.../pg-ab/aa-bitmap-full/ab.json` without its blocks).
    fn stored() -> AbResult {
        let p = crate::host::crate_root().join("tests/fixtures/pg-ab-seven-epochs.json");
        serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap()
    }

    #[test]
    fn the_epoch_table_shows_each_epochs_ratios_and_a_dash_without_blocks() {
        let mut r = stored();
        assert!(r.epochs.len() > 2, "{} epochs", r.epochs.len());
        r.blocks.clear();
        let md = markdown(&r);
        assert!(!md.contains("per epoch: medians"), "no blocks, no sentence on them");
        let m = METRICS.iter().position(|(n, _)| *n == r.primary).unwrap();
        let slow = r.epochs.len() - 1;
        for e in 0..r.epochs.len() {
            for k in 0..5 {
                let a = if e == slow { 1.36 } else { 1.0 } + k as f64 * 1e-3;
                let mut sums = vec![[f64::NAN; 3]; METRICS.len()];
                sums[m] = [a, 1.0, 1.0 + k as f64 * 1e-3];
                r.blocks.push(BlockRecord { epoch: e, group: 0, sums, steps: Vec::new() });
            }
        }
        let per = r.per_epoch();
        assert_eq!(per.len(), r.epochs.len());
        let (ba, aa) = per[slow].unwrap();
        assert!((ba - 1.0 / 1.362).abs() < 1e-9 && (aa - 1.002 / 1.362).abs() < 1e-9, "{ba} {aa}");
        let (ba, aa) = per[0].unwrap();
        assert!((ba - 1.0 / 1.002).abs() < 1e-9 && (aa - 1.0).abs() < 1e-9, "{ba} {aa}");
        let md = markdown(&r);
        let row = md.lines().find(|l| l.trim_start().starts_with(&format!("| {:>5} |", slow + 1)) || l.starts_with(&format!("|     {} |", slow + 1))).unwrap_or_else(|| panic!("{md}"));
        assert!(row.contains("-26.58%") && row.contains("-26.43%"), "{row}");
        assert!(md.contains("per epoch: medians over the epoch's blocks"), "{md}");
    }
}
