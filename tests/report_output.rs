//! What a reader of a real (test-size) report gets: a headline per study, terminal lines
//! within 120 columns, report.md tables with units once and integers as integers, a
//! report.json that its JSON Schema (`schema/report.schema.json`) accepts, with each pair's
//! raw per-process trial ratios; and `compare`: hosts told apart, the same file refused,
//! `--baseline` before and after on one host.

use hotloops::report::{self, Report};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn hotloops(args: &[&str]) -> Output {
    // Core locks of this test's own: a report another user runs on this host must not refuse it.
    let locks = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("report-output-locks-{}", std::process::id()));
    std::fs::create_dir_all(&locks).unwrap();
    Command::new(env!("CARGO_BIN_EXE_hotloops")).args(args).env("HOTLOOPS_LOCK_DIR", &locks).output().unwrap()
}

/// A failed command's last lines of stderr (where its error is) first, then everything: CI
/// shows only the head and tail of a long panic message, and a report's progress lines would
/// push the error out of both.
fn text(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    let last = lines[lines.len().saturating_sub(6)..].join("\n");
    format!("{last}\n--- stdout:\n{}\n--- stderr:\n{err}", String::from_utf8_lossy(&o.stdout))
}

/// One report of every study at test size (instructions where valgrind is installed), made
/// once for this file's tests: its directory and its terminal output.
struct Made {
    dir: PathBuf,
    stdout: String,
}

fn made() -> &'static Made {
    static M: OnceLock<Made> = OnceLock::new();
    M.get_or_init(|| {
        // Under cargo's per-target scratch directory, replaced on each run.
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-output");
        let _ = std::fs::remove_dir_all(&dir);
        let out = dir.join("all");
        let mut args = vec!["report", "--size", "test", "--budget-ms", "20", "--no-model", "--out", out.to_str().unwrap()];
        if Command::new("valgrind").arg("--version").output().is_err() {
            args.push("--no-instructions");
        }
        let o = hotloops(&args);
        assert!(o.status.success(), "{}", text(&o));
        Made { dir, stdout: String::from_utf8(o.stdout).unwrap() }
    })
}

fn load(dir: &Path) -> Report {
    report::load(&dir.join("report.json")).unwrap()
}

#[test]
fn every_terminal_line_fits_120_columns() {
    let m = made();
    let long: Vec<&str> = m.stdout.lines().filter(|l| l.chars().count() > report::TERMINAL_WIDTH).collect();
    assert!(long.is_empty(), "{} lines over {} columns, e.g.:\n{}", long.len(), report::TERMINAL_WIDTH, long.join("\n"));
    // And it is the report, not an empty page: every study's every case is there.
    let r = load(&m.dir.join("all"));
    for s in &r.studies {
        for c in &s.cases {
            assert!(m.stdout.contains(&format!("{} / {}", s.name, c.name)), "{}/{} missing", s.name, c.name);
        }
    }
}

#[test]
fn the_headline_has_a_line_per_variant_with_interval_verdict_floor_and_seed() {
    let m = made();
    let r = load(&m.dir.join("all"));
    let head = m.stdout.split("note:").next().unwrap();
    let md = std::fs::read_to_string(m.dir.join("all/report.md")).unwrap();
    // The seed cards lead, then the headline before any other section.
    let body = md.strip_prefix("# hotloops report\n\n").expect("the title first");
    let body = match body.strip_prefix("## Seed cards\n") {
        Some(rest) => &rest[rest.find("\n## ").map_or(0, |i| i + 1)..],
        None => body,
    };
    assert!(body.starts_with("## Headline"), "the headline leads report.md after the seed cards:\n{}", &md[..300.min(md.len())]);
    let mut seeded = 0;
    for row in r.rows.iter().filter(|x| x.metric == "wall-clock" && x.variant != x.baseline) {
        let short = row.variant.rsplit('/').next().unwrap();
        let floor = r.studies.iter().find(|s| s.name == row.study).unwrap().cases.iter().find(|c| c.name == row.case).unwrap().noise_floor;
        let want = [
            report::pct(row.ratio.unwrap()),
            format!("[{}, {}]", report::pct(row.ci_low.unwrap()), report::pct(row.ci_high.unwrap())),
            row.verdict.unwrap().to_string(),
            format!("±{:.2}%", floor * 100.0),
        ];
        let line = headline_line(head, &row.case, short, &want);
        let line = line.unwrap_or_else(|| panic!("no headline line for {}/{} with {want:?}:\n{head}", row.case, row.variant));
        if let Some(s) = row.seed_ratio {
            seeded += 1;
            assert!(line.trim_end_matches(['|', ' ']).ends_with(&report::pct(s)), "the seed in time convention: {line}");
        }
    }
    assert!(seeded > 0, "some variant carries a seed ratio");
    // Seed 000's "+2.24%" speedup reads as -2.19% time on the bitmap case, in both outputs.
    assert!(headline_line(head, "table3-bitmap", "local", &["-2.19%".to_string()]).is_some(), "{head}");
    assert!(md.contains("-2.19% time (2.24% faster)"), "report.md gives the seed's own words too");
    // A real flag (a busy host) warns; an unflagged run does not.
    assert_eq!(head.contains("WARNING"), r.rows.iter().any(|x| !x.flags.is_empty()), "{head}");
}

/// The headline row of `case`'s `short` variant holding every string of `want`: in a study's
/// table with a case column (`| case | variant | ...`), or, where flagged verdicts made the table
/// too wide and each case heads its own table (`  case NAME`, then `| variant | ...`), under its
/// case's heading.
fn headline_line<'a>(head: &'a str, case: &str, short: &str, want: &[String]) -> Option<&'a str> {
    let mut under: Option<&str> = None;
    for l in head.lines() {
        if let Some(c) = l.strip_prefix("  case ") {
            under = Some(c.trim());
            continue;
        }
        if !l.starts_with('|') {
            if !l.trim().is_empty() && !l.starts_with("    ") {
                under = None;
            }
            continue;
        }
        let in_case = l.starts_with(&format!("| {case} ")) || (under == Some(case) && l.starts_with(&format!("| {short} ")));
        if in_case && l.contains(&format!(" {short} ")) && want.iter().all(|w| l.contains(w.as_str())) {
            return Some(l);
        }
    }
    None
}

#[test]
fn flags_on_a_row_are_shown_with_a_warning() {
    let mut r = load(&made().dir.join("all"));
    // Only the flag set here: a busy test host may have flagged some of its own.
    for x in &mut r.rows {
        x.flags.clear();
    }
    let i = r.rows.iter().position(|x| x.metric == "wall-clock" && x.variant == "local-index/local" && x.case == "table3").unwrap();
    r.rows[i].flags.push("busy-host: thread ran 71% of wall time".into());
    for out in [report::terminal(&r), report::markdown(&r)] {
        assert!(out.contains("WARNING: 1 of"), "{}", &out[..600.min(out.len())]);
        assert!(out.contains("flagged table3/local: busy-host: thread ran 71% of wall time"), "{out}");
    }
    // The field round-trips and is left out when empty.
    let json = serde_json::to_value(&r.rows).unwrap();
    assert_eq!(json.as_array().unwrap().iter().filter(|x| x.get("flags").is_some()).count(), 1);
}

#[test]
fn report_md_names_units_once_and_prints_integers_as_integers() {
    let md = std::fs::read_to_string(made().dir.join("all/report.md")).unwrap();
    for bad in ["pages/s (pages/s)", "task-clock/", "(instr/", "9437184.0"] {
        assert!(!md.contains(bad), "report.md has {bad:?}");
    }
    assert!(md.contains("task-clock [ns/TID]"), "the task clock is labelled in ns");
    // tid-batch's work_mem (an integer count of bytes) is printed as one.
    let line = md.lines().find(|l| l.starts_with("| work-mem-bytes [B]")).expect("tid-batch's study figures");
    assert!(line.split('|').nth(2).unwrap().trim().chars().all(|c| c.is_ascii_digit()), "{line}");
    // Separate tables per metric group.
    for group in ["**wall clock**", "**counters (perf)**", "**study figures**"] {
        assert!(md.contains(group), "{group} missing");
    }
}

fn schema() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/schema/report.schema.json")).unwrap()).unwrap()
}

fn errors(v: &serde_json::Value) -> Vec<String> {
    let s = schema();
    let validator = jsonschema::validator_for(&s).unwrap();
    validator.iter_errors(v).map(|e| format!("{} at {}", e, e.instance_path())).collect()
}

#[test]
fn report_json_validates_against_its_schema_and_a_renamed_field_does_not() {
    assert!(jsonschema::meta::is_valid(&schema()), "the schema file is a valid draft 2020-12 schema");
    let text = std::fs::read_to_string(made().dir.join("all/report.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let e = errors(&v);
    assert!(e.is_empty(), "{} errors, e.g.\n{}", e.len(), e[..e.len().min(10)].join("\n"));
    let mutate = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut w = v.clone();
        f(&mut w);
        errors(&w)
    };
    let rename = |o: &mut serde_json::Value, from: &str, to: &str| {
        let m = o.as_object_mut().unwrap();
        let x = m.remove(from).unwrap();
        m.insert(to.into(), x);
    };
    assert!(!mutate(&|w| rename(&mut w["rows"][0], "unit", "units")).is_empty(), "a renamed row field");
    assert!(!mutate(&|w| rename(&mut w["studies"][0]["cases"][0]["pairs"][0], "median_ratio", "median")).is_empty(), "a renamed pair field");
    assert!(!mutate(&|w| { w["studies"][0]["cases"][0]["aa"].as_object_mut().unwrap().remove("per_process"); }).is_empty(), "missing raw trials");
    assert!(!mutate(&|w| w["rows"][0]["metric"] = "pages/s".into()).is_empty(), "a metric name that is not kebab-case");
    assert!(!mutate(&|w| w["rows"][0]["unit"] = "x vs sync-per-page".into()).is_empty(), "a unit that is a sentence");
    assert!(!mutate(&|w| w["schema_version"] = 1.into()).is_empty(), "another version");
}

#[test]
fn each_pair_keeps_its_raw_trial_ratios_per_process() {
    let r = load(&made().dir.join("all"));
    for s in &r.studies {
        for c in &s.cases {
            for p in std::iter::once(&c.aa).chain(&c.pairs) {
                assert_eq!(p.per_process.len(), p.processes, "{}/{}", c.name, p.variant);
                let all: Vec<f64> = p.per_process.iter().flat_map(|t| t.ratios.iter().copied()).collect();
                assert_eq!(all.len(), p.trials, "{}/{}", c.name, p.variant);
                assert_eq!(hotloops::measure::stats::median(&all), p.median_ratio, "the summary is the raw trials' median");
            }
        }
    }
}

#[test]
fn compare_refuses_the_same_report_twice_and_tells_hosts_apart() {
    let m = made();
    let a = m.dir.join("all/report.json");
    let o = hotloops(&["compare", a.to_str().unwrap(), a.to_str().unwrap(), "--out", m.dir.join("never").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("the same report twice"), "{}", text(&o));
    // A copy under another name is the same report too.
    let copy = m.dir.join("copy/report.json");
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&a, &copy).unwrap();
    let o = hotloops(&["compare", a.to_str().unwrap(), copy.to_str().unwrap(), "--out", m.dir.join("never").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("same report (a copy)"), "{}", text(&o));
    assert!(!m.dir.join("never").exists());
    // Two reports of one VM (both `vm`): distinct labels, by directory or by --label.
    let mut other: Report = load(&m.dir.join("all"));
    other.provenance.date = "2000-01-01T00:00:00Z".into();
    let b = m.dir.join("second/report.json");
    std::fs::create_dir_all(b.parent().unwrap()).unwrap();
    std::fs::write(&b, serde_json::to_vec(&other).unwrap()).unwrap();
    let ls = report::compare::load_labelled(&[a.clone(), b.clone()], &[]).unwrap();
    assert_ne!(ls[0].label, ls[1].label);
    let out = m.dir.join("cmp");
    let o = hotloops(&["compare", a.to_str().unwrap(), b.to_str().unwrap(), "--label", "zen4-idle", "--label", "zen4-busy", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    assert!(md.contains("| zen4-idle ") && md.contains("| zen4-busy ") && md.contains("test size"), "{md}");
}

#[test]
fn compare_baseline_gives_the_ratio_of_ratios_per_pair_on_one_host() {
    let m = made();
    let new = m.dir.join("new");
    let o = hotloops(&["report", "--study", "local-index", "--size", "test", "--budget-ms", "20", "--no-instructions", "--no-model", "--out", new.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let old = m.dir.join("all/report.json");
    let out = m.dir.join("before-after");
    let o = hotloops(&["compare", "--baseline", old.to_str().unwrap(), new.join("report.json").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    let (ro, rn) = (load(&m.dir.join("all")), load(&new));
    for c in &rn.studies[0].cases {
        for p in &c.pairs {
            let po = ro.studies.iter().find(|s| s.name == "local-index").unwrap().cases.iter().find(|x| x.name == c.name).unwrap().pairs.iter().find(|x| x.variant == p.variant).unwrap();
            let (rr, _) = report::compare::ratio_of_ratios(po, p, 0);
            let short = p.variant.rsplit('/').next().unwrap();
            assert!(
                md.lines().any(|l| l.starts_with(&format!("| {} ", c.name)) && l.contains(&format!(" {short} ")) && l.contains(&report::pct(rr))),
                "{}/{short}: {} missing:\n{md}", c.name, report::pct(rr)
            );
        }
    }
    // Only studies in both; another size is refused, as is an old report without raw trials.
    assert!(!md.contains("## tid-batch"), "{md}");
    let quick = m.dir.join("quick");
    let o = hotloops(&["report", "--study", "local-index", "--size", "quick", "--budget-ms", "20", "--no-instructions", "--no-model", "--out", quick.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o));
    let o = hotloops(&["compare", "--baseline", old.to_str().unwrap(), quick.join("report.json").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("same size"), "{}", text(&o));
    // A version 1 report still loads, but has no raw trials to pool.
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(new.join("report.json")).unwrap()).unwrap();
    v["schema_version"] = 1.into();
    for s in v["studies"].as_array_mut().unwrap() {
        for c in s["cases"].as_array_mut().unwrap() {
            c["aa"].as_object_mut().unwrap().remove("per_process");
            for p in c["pairs"].as_array_mut().unwrap() {
                p.as_object_mut().unwrap().remove("per_process");
            }
        }
    }
    let v1 = m.dir.join("v1/report.json");
    std::fs::create_dir_all(v1.parent().unwrap()).unwrap();
    std::fs::write(&v1, serde_json::to_vec(&v).unwrap()).unwrap();
    assert_eq!(report::load(&v1).unwrap().schema_version, 1, "version 1 reports still load");
    let o = hotloops(&["compare", "--baseline", v1.to_str().unwrap(), new.join("report.json").to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("no raw trials"), "{}", text(&o));
}

/// The distribution's Chromium (`chromium`, installed by scripts/install-tools.sh).
fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser"] {
        if let Ok(o) = Command::new(name).arg("--version").output()
            && o.status.success()
        {
            return PathBuf::from(name);
        }
    }
    panic!("this test loads report.html in headless Chromium: install it with `apt-get install -y chromium` (scripts/install-tools.sh does)");
}

/// `page` as headless Chromium parsed it (`--dump-dom`): the DOM the reader sees.
fn dom(page: &Path) -> String {
    // A profile of its own, empty, and no network: the page must need nothing from outside.
    let profile = tempfile::tempdir().unwrap();
    let o = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Text of an HTML fragment: tags dropped, entities read, white space squeezed.
fn text_of(html: &str) -> String {
    let mut t = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => t.push(c),
            _ => {}
        }
    }
    let t = t.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What is broken in a seed card's rendering, against its Markdown: a quotation mark or a
/// list marker shown as text, a list item that is not its whole source line.
fn broken_card(card_html: &str, card_md: &str) -> Vec<String> {
    let mut bad = Vec::new();
    // The quotation: its `>` marks are markup, never text at the start of a line or element.
    for l in card_html.split(['>', '\n']).filter(|t| t.trim_start().starts_with("&gt; ")) {
        bad.push(format!("a `>` shown as text: {}", l.trim()));
    }
    // Each `- ` item of the Markdown (its wrapped lines joined) is one whole <li>.
    let mut items: Vec<String> = Vec::new();
    for l in card_md.lines() {
        if let Some(item) = l.strip_prefix("- ") {
            items.push(item.to_string());
        } else if l.starts_with("  ") && !items.is_empty() && !l.trim().is_empty() {
            let last = items.last_mut().unwrap();
            last.push(' ');
            last.push_str(l.trim());
        }
    }
    let lis: Vec<String> = card_html.split("<li>").skip(1).map(|x| text_of(&x[..x.find("</li>").unwrap_or(x.len())])).collect();
    if lis.len() != items.len() {
        bad.push(format!("{} list items for {} source lines", lis.len(), items.len()));
    }
    for it in &items {
        let want = it.replace('`', "").replace("**", "").split_whitespace().collect::<Vec<_>>().join(" ");
        if !lis.contains(&want) {
            bad.push(format!("no list item is the whole line {want:?}"));
        }
    }
    bad
}

#[test]
fn the_broken_card_check_catches_a_raw_quote_and_a_split_item() {
    let md = "### Seed 000\n\n> a quote\n> more\n\n- first item\n  wrapped on\n- second\n";
    let good = "<h3>Seed 000</h3><blockquote><p>a quote more</p></blockquote><ul><li>first item wrapped on</li><li>second</li></ul>";
    assert_eq!(broken_card(good, md), Vec::<String>::new());
    // How the hand-written converter rendered it: the marks as text, the item split.
    let old = "<h3>Seed 000</h3><p>&gt; a quote &gt; more</p><ul><li>first item</li></ul>\n<p>wrapped on</p><ul><li>second</li></ul>";
    let bad = broken_card(old, md);
    assert!(bad.iter().any(|b| b.contains("shown as text")), "{bad:?}");
    assert!(bad.iter().any(|b| b.contains("first item wrapped on")), "{bad:?}");
}

#[test]
fn report_html_loads_in_headless_chromium_with_cards_contents_and_every_studys_table() {
    let m = made();
    let page = m.dir.join("all/report.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("src=\"http") && !html.contains("<script") && !html.contains("<link") && !html.contains("url(") && !html.contains("@import"), "self-contained: no external files, fonts or scripts");
    let dom = dom(&page);
    let r = load(&m.dir.join("all"));
    // The seed cards first, as cards, each whole, each with its study's plot beside it.
    let cards = hotloops::report::seeds::report_cards(&r);
    assert_eq!(cards.len(), 4, "every study ran: every seed has its card");
    let first_card = dom.find("<article class=\"card ").expect("cards");
    assert!(first_card < dom.find("<section id=\"headline\">").expect("the headline's section"), "the cards lead the page");
    for c in &cards {
        let at = dom.find(&format!("id=\"seed-{}\"", c.spec.seed)).unwrap_or_else(|| panic!("seed {} has no card", c.spec.seed));
        let card = &dom[at..];
        let card = &card[..card.find("</article>").unwrap()];
        let bad = broken_card(card, &hotloops::report::seeds::render(c, true));
        assert!(bad.is_empty(), "seed {}: {bad:?}", c.spec.seed);
        assert!(card.contains("<blockquote>") && card.contains("<svg") && card.contains("class=\"conclusion "), "seed {}", c.spec.seed);
    }
    // Nowhere a quotation mark shown as text.
    assert!(!dom.contains(">&gt; ") && !dom.contains("\n&gt; "), "a raw `>` on the page");
    // A table of contents reaching every section.
    let nav = &dom[dom.find("<nav").expect("a table of contents")..];
    let nav = &nav[..nav.find("</nav>").unwrap()];
    for s in &r.studies {
        assert!(dom.contains(&format!("<section id=\"study-{}\">", s.name)), "{} has no section", s.name);
        assert!(nav.contains(&format!("href=\"#study-{}\"", s.name)), "{} not in the contents", s.name);
        let sec = &dom[dom.find(&format!("<section id=\"study-{}\">", s.name)).unwrap()..];
        let sec = &sec[..sec.find("</section>").unwrap()];
        let tables = sec.matches(&format!("<table data-study=\"{}\">", s.name)).count();
        assert!(tables > s.cases.len(), "{}: {tables} tables for {} cases", s.name, s.cases.len());
        // Every table in a box that scrolls sideways: the page keeps to a laptop's width.
        assert_eq!(sec.matches("<div class=\"table-wrap\">").count(), tables, "{}", s.name);
        for c in &s.cases {
            assert!(sec.contains(&format!(">{} / {}</h3>", s.name, c.name)), "{}/{}", s.name, c.name);
        }
        assert!(sec.contains("<svg"), "{}: its plot", s.name);
    }
    // The headline's verdicts are coloured; the provenance came through.
    assert!(dom.contains("<span class=\"v ") && dom.contains(&r.provenance.commit));
}

/// The default run gives each seed card its C pairs under every configuration built here (on
/// the seed's own case only), so no card line is missing that this machine could give.
#[test]
fn the_default_run_measures_each_cards_c_pairs_under_every_built_configuration() {
    let r = load(&made().dir.join("all"));
    assert!(r.config.quick, "the default run");
    let built: Vec<&str> = r.config.c_configs.iter().filter(|c| !c.compiler.is_empty()).map(|c| c.name.as_str()).collect();
    let mut checked = 0;
    for spec in hotloops::report::seeds::SPECS {
        for (cfg, a, b) in spec.c_pairs.iter().filter(|(cfg, _, _)| built.contains(cfg)) {
            for id in [a, b] {
                assert!(
                    r.rows.iter().any(|x| x.study == spec.study && x.case == spec.case && &x.variant == id && x.metric == "wall-clock"),
                    "seed {}: no wall-clock row of {id} ({cfg}) on {}",
                    spec.seed,
                    spec.case
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 2, "gcc12-pg is always built: {checked} pairs checked");
    // Only there: a configuration other than the canonical one runs no other case's rows.
    assert!(!r.rows.iter().any(|x| x.variant.contains('@') && !hotloops::report::seeds::SPECS.iter().any(|s| s.study == x.study && s.case == x.case)), "a non-canonical C row outside the seed cases");
    for c in hotloops::report::seeds::report_cards(&r) {
        for l in c.lines.iter().filter(|l| l.view == hotloops::report::seeds::View::C) {
            let cfg = l.label.trim_start_matches("C ");
            assert_eq!(l.figure.is_ok(), built.contains(&cfg), "seed {}: {} {:?}", c.spec.seed, l.label, l.figure);
        }
    }
}
