//! The headline at the top of the terminal output and `report.md`: per study, one line per
//! variant and case with the time change, its 95% interval, the verdict, the A/A floor and
//! the seed's claim in the same convention (a time change: the seed's "2.24% faster" is
//! -2.19% time, its "1.48x" -32.43%), and any flags a figure carries, with a warning line
//! when there are some.

use super::table::{Align, Table};
use super::{Report, Row, pct, short, wrap};
use std::fmt::Write as _;

/// A time ratio (variant / baseline) in the seed's words: 0.5 -> "2.00x faster",
/// 1 / 1.0224 -> "2.24% faster".
pub fn speed_words(time_ratio: f64) -> String {
    if !time_ratio.is_finite() || time_ratio <= 0.0 {
        return "n/a".into();
    }
    let (s, word) = if time_ratio <= 1.0 { (1.0 / time_ratio, "faster") } else { (time_ratio, "slower") };
    if s >= 1.2 { format!("{s:.2}x {word}") } else { format!("{:.2}% {word}", (s - 1.0) * 100.0) }
}

/// A seed's time ratio as the report states its own: the time change, then the seed's words.
pub fn seed_words(time_ratio: f64) -> String {
    format!("{} time ({})", pct(time_ratio), speed_words(time_ratio))
}

/// One headline line: a variant against its baseline on one case.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Study.
    pub study: String,
    /// Case.
    pub case: String,
    /// Variant id.
    pub variant: String,
    /// Time ratio, variant / baseline.
    pub ratio: f64,
    /// Its 95% interval.
    pub ci: (f64, f64),
    /// The verdict against the A/A floor.
    pub verdict: String,
    /// The case's A/A floor (relative).
    pub floor: f64,
    /// The seed's time ratio, where it reported one.
    pub seed: Option<f64>,
    /// Flags of this pair's figures (and of the case's A/A control).
    pub flags: Vec<String>,
}

/// The headline's lines, study by study in report order.
pub fn lines(r: &Report) -> Vec<Line> {
    let mut out = Vec::new();
    for s in &r.studies {
        for c in &s.cases {
            let rows: Vec<&Row> = r.rows.iter().filter(|x| x.study == s.name && x.case == c.name).collect();
            for w in rows.iter().filter(|x| x.metric == "wall-clock" && x.variant != x.baseline) {
                let (Some(ratio), Some(lo), Some(hi)) = (w.ratio, w.ci_low, w.ci_high) else { continue };
                let mut flags: Vec<String> = Vec::new();
                for x in rows.iter().filter(|x| x.variant == w.variant || x.metric == "wall-clock-aa") {
                    for f in &x.flags {
                        let f = if x.metric == "wall-clock-aa" { format!("A/A control: {f}") } else { f.clone() };
                        if !flags.contains(&f) {
                            flags.push(f);
                        }
                    }
                }
                out.push(Line {
                    study: s.name.clone(),
                    case: c.name.clone(),
                    variant: w.variant.clone(),
                    ratio,
                    ci: (lo, hi),
                    verdict: w.verdict.map(|v| v.to_string()).unwrap_or_default(),
                    floor: c.noise_floor,
                    seed: w.seed_ratio,
                    flags,
                });
            }
        }
    }
    out
}

/// The warning line when any figure is flagged.
fn warning(lines: &[Line]) -> Option<String> {
    let n = lines.iter().filter(|l| !l.flags.is_empty()).count();
    (n > 0).then(|| format!("WARNING: {n} of {} pairs are flagged (listed under their study); their verdicts may not hold.", lines.len()))
}

/// The study's table; `with_case`: the case as a column (else the caller heads each case).
fn study_table(lines: &[&Line], wide: bool, with_case: bool) -> Table {
    let mut cols = vec![("case", Align::Left)];
    cols.truncate(with_case as usize);
    cols.extend([
        ("variant", Align::Left),
        ("time", Align::Right),
        ("95% interval", Align::Right),
        ("verdict", Align::Left),
        // Narrow headers in the terminal, where C rows of other configurations
        // (`c-store-each@gcc12-upstream`) widen the variant column.
        (if wide { "A/A floor" } else { "A/A" }, Align::Right),
        (if wide { "seed (time)" } else { "seed" }, Align::Right),
    ]);
    let mut t = Table::new(cols);
    for l in lines {
        let seed = match (l.seed, wide) {
            (Some(s), true) => seed_words(s),
            (Some(s), false) => pct(s),
            (None, _) => String::new(),
        };
        let verdict = if l.flags.is_empty() { l.verdict.clone() } else { format!("{} *", l.verdict) };
        let mut cells = vec![l.case.clone()];
        cells.truncate(with_case as usize);
        cells.extend([short(&l.variant).to_string(), pct(l.ratio), format!("[{}, {}]", pct(l.ci.0), pct(l.ci.1)), verdict, format!("±{:.2}%", l.floor * 100.0), seed]);
        t.row(cells);
    }
    t
}

/// A study's rows as one table, or, in the terminal, when long case and variant names with
/// flagged verdicts (a loaded host) widen it past the terminal's width, a table per case under
/// its name.
fn study_tables(ls: &[&Line], wide: bool) -> String {
    let table = study_table(ls, wide, true).render();
    if wide || table.lines().all(|l| l.chars().count() <= super::TERMINAL_WIDTH) {
        return table;
    }
    let mut cases: Vec<&str> = Vec::new();
    for l in ls {
        if !cases.contains(&l.case.as_str()) {
            cases.push(&l.case);
        }
    }
    let mut m = String::new();
    for c in cases {
        let rows: Vec<&Line> = ls.iter().copied().filter(|l| l.case == c).collect();
        let _ = writeln!(m, "  case {c}");
        m.push_str(&study_table(&rows, wide, false).render());
    }
    m
}

fn render(r: &Report, wide: bool) -> String {
    let all = lines(r);
    let mut m = String::new();
    if let Some(w) = warning(&all) {
        m.push_str(&if wide { format!("**{w}**\n\n") } else { wrap(&w, "  ") + "\n" });
    }
    for s in &r.studies {
        let ls: Vec<&Line> = all.iter().filter(|l| l.study == s.name).collect();
        let title = format!("{}: {}; seed reported {}", s.name, s.seed.split(" (").next().unwrap_or(&s.seed), s.seed_numbers);
        if wide {
            let _ = writeln!(m, "**{title}**\n");
        } else {
            m.push_str(&wrap(&title, "    "));
        }
        if ls.is_empty() {
            let _ = writeln!(m, "(no pairs measured)\n");
            continue;
        }
        m.push_str(&study_tables(&ls, wide));
        for l in ls.iter().filter(|l| !l.flags.is_empty()) {
            let f = format!("flagged {}/{}: {}", l.case, short(&l.variant), l.flags.join("; "));
            m.push_str(&if wide { format!("\n- {f}\n") } else { wrap(&format!("  ! {f}"), "    ") });
        }
        m.push('\n');
    }
    m
}

/// The headline as Markdown (`report.md`): the seed's words beside its time change.
pub fn markdown(r: &Report) -> String {
    format!("## Headline\n\ntime: variant vs baseline, median of per-trial ratios (negative: the variant takes less time).\n\n{}", render(r, true))
}

/// The headline for the terminal, every line at most [`super::TERMINAL_WIDTH`] columns.
pub fn terminal(r: &Report) -> String {
    render(r, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_words_and_the_time_change_agree() {
        // Seed 000: "+2.24%" faster, i.e. the patched run takes 1/1.0224 of the time.
        assert_eq!(seed_words(1.0 / 1.0224), "-2.19% time (2.24% faster)");
        // tid-batch's "1.48x" and alloc-churn's halved time.
        assert_eq!(speed_words(115.1 / 170.4), "1.48x faster");
        assert_eq!(seed_words(0.5), "-50.00% time (2.00x faster)");
        assert_eq!(speed_words(1.05), "5.00% slower");
        assert_eq!(speed_words(f64::NAN), "n/a");
    }

    /// A loaded host flags every pair and widens every interval: the terminal's table still
    /// fits, each case heading its own rows, and no row is lost.
    #[test]
    fn a_flagged_wide_table_still_fits_the_terminal() {
        let line = |case: &str, variant: &str| Line {
            study: "dir-by-value".into(),
            case: case.into(),
            variant: variant.into(),
            ratio: 1.3129,
            ci: (0.8207, 1.3461),
            verdict: "layout-sensitive".into(),
            floor: 0.1252,
            seed: Some(0.9524),
            flags: vec!["busy-host".into()],
        };
        let ls = [line("range-15000/0-keys", "dir-by-value/c-by-value@gcc12-upstream"), line("range-2000/1-key", "dir-by-value/c-opaque@clang19-pg")];
        let refs: Vec<&Line> = ls.iter().collect();
        assert!(study_table(&refs, false, true).render().lines().any(|l| l.chars().count() > super::super::TERMINAL_WIDTH), "the case is wide enough to need the fallback");
        let out = study_tables(&refs, false);
        for l in out.lines() {
            assert!(l.chars().count() <= super::super::TERMINAL_WIDTH, "{} columns: {l}", l.chars().count());
        }
        assert!(out.contains("  case range-15000/0-keys") && out.contains("c-by-value@gcc12-upstream") && out.contains("c-opaque@clang19-pg"), "{out}");
    }
}
