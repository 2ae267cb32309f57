//! `report.html`: one self-contained page (no scripts, no external files or fonts). A header
//! with the run, a table of contents, the seed cards as cards (the conclusion coloured by what
//! it says, a plot of its pairs beside each), then the rest of `report.md` (headline, provenance,
//! notes, every study's tables with its plot after its heading). The Markdown is
//! [`super::markdown`]'s, rendered by pulldown-cmark, so the page and `report.md` say the same;
//! wide tables scroll inside their own box, and verdicts are coloured wherever they stand.

use super::Report;
use super::seeds::{self, Card};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::fmt::Write as _;

/// Text as HTML (for what the page writes around the Markdown).
fn esc(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The Markdown features the report uses: pipe tables, footnotes, strikethrough.
fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH
}

/// The report's prose is never markup: a `<id>` in it is text, not a tag.
fn literal(e: Event<'_>) -> Event<'_> {
    match e {
        Event::Html(h) | Event::InlineHtml(h) => Event::Text(h),
        e => e,
    }
}

/// A heading's plain text (for its id and the table of contents).
fn plain(events: &[Event<'_>]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
            Event::SoftBreak | Event::HardBreak => Some(" "),
            _ => None,
        })
        .collect()
}

/// Markdown events as HTML.
fn to_html<'a>(events: impl IntoIterator<Item = Event<'a>>) -> String {
    let mut s = String::new();
    pulldown_cmark::html::push_html(&mut s, events.into_iter());
    s
}

/// An id for an anchor: lower-case words joined by `-`, unique on the page.
fn slug(text: &str, taken: &mut Vec<String>) -> String {
    let mut s = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let base = s.trim_end_matches('-').to_string();
    let base = if base.is_empty() { "section".to_string() } else { base };
    let mut id = base.clone();
    let mut n = 2;
    while taken.contains(&id) {
        id = format!("{base}-{n}");
        n += 1;
    }
    taken.push(id.clone());
    id
}

/// One entry of the table of contents.
struct Toc {
    level: u8,
    id: String,
    /// As HTML (a heading may hold code).
    title: String,
}

/// The words a verdict cell holds, and the class that colours them.
const VERDICTS: &[(&str, &str)] =
    &[("faster", "faster"), ("slower", "slower"), ("not resolved", "unresolved"), ("layout-sensitive", "layout"), ("missing", "missing"), ("MISSING", "missing")];

/// Colour every cell that is a verdict (or a missing view) and nothing else; a flagged one
/// (`faster *`: a busy host, say) keeps its mark.
fn colour_verdicts(html: &str) -> String {
    let mut out = html.to_string();
    for (word, class) in VERDICTS {
        for open in ["<td>", "<td style=\"text-align: left\">", "<td style=\"text-align: right\">"] {
            out = out.replace(&format!("{open}{word}</td>"), &format!("{open}<span class=\"v {class}\">{word}</span></td>"));
            out = out.replace(
                &format!("{open}{word} *</td>"),
                &format!("{open}<span class=\"v {class}\">{word}</span> <span class=\"flag\" title=\"flagged: see the lines below the table\">*</span></td>"),
            );
        }
    }
    out
}

/// Every table in a box of its own that scrolls sideways on a narrow screen, marked with
/// its study where it has one.
fn wrap_tables(html: &str, study: Option<&str>) -> String {
    let open = match study {
        Some(s) => format!("<div class=\"table-wrap\"><table data-study=\"{}\">", esc(s)),
        None => "<div class=\"table-wrap\"><table>".to_string(),
    };
    html.replace("<table>", &open).replace("</table>", "</table></div>")
}

/// What a card's conclusion says, as a class and a short label for its badge.
fn outcome(conclusion: &str) -> (&'static str, &'static str) {
    let c = conclusion.to_ascii_lowercase();
    if let Some(b) = c.strip_prefix("the patched build settles it: ") {
        return if b.starts_with("reproduced") {
            ("good", "reproduced by the patch")
        } else if b.starts_with("contradicted") {
            ("bad", "contradicted by the patch")
        } else if b.starts_with("excluded") {
            ("bad", "excluded by the patch")
        } else {
            ("none", "not resolved by the patch")
        };
    }
    if c.starts_with("reproduced") {
        ("good", "reproduced in the server")
    } else if c.starts_with("contradicted") || c.starts_with("the rust model contradicts") {
        ("bad", "contradicted")
    } else if c.starts_with("model only") {
        ("partial", "model only")
    } else if c.starts_with("the rust model resolves") {
        ("partial", "model resolves it; server not judged")
    } else if c.starts_with("no conclusion") {
        ("none", "no conclusion")
    } else {
        ("none", "not resolved")
    }
}

/// The plot beside a card: the seed's case, the pairs the card reads (the Rust model's, the C
/// kernels') and the A/A control, a row each. None when the report lacks the case.
fn card_svg(r: &Report, c: &Card) -> Option<String> {
    let ids: Vec<&str> = std::iter::once(c.spec.variant).chain(c.spec.c_pairs.iter().flat_map(|(_, a, b)| [*a, *b])).collect();
    super::plot::forest_svg(r, c.spec.study, c.spec.case, &ids)?.ok()
}

/// A seed card: its Markdown (as `hotloops seed ID --format md` prints it) as a card, the
/// conclusion coloured, the sources folded under a summary, the study's plot beside it.
fn card(c: &Card, svg: Option<&str>, taken: &mut Vec<String>, toc: &mut Vec<Toc>) -> String {
    let md = seeds::render(c, true);
    let (class, label) = outcome(&c.conclusion);
    // The card's own heading is written here (with its id and badge); the rest is the Markdown.
    let (title, body) = md.split_once('\n').unwrap_or((&md, ""));
    let title = title.trim_start_matches('#').trim();
    let id = slug(&format!("seed {}", c.spec.seed), taken);
    toc.push(Toc { level: 3, id: id.clone(), title: esc(&format!("Seed {}: {}", c.spec.seed, c.spec.study)) });
    let (main, sources) = match body.find("\nWhere each figure came from") {
        Some(i) => (&body[..i], Some(&body[i..])),
        None => (body, None),
    };
    let mut html = to_html(Parser::new_ext(main, options()).map(literal));
    // The conclusion and the rule it follows are one paragraph in the Markdown: two here.
    html = html
        .replacen("<p><strong>Conclusion:", &format!("<p class=\"conclusion {class}\"><strong>Conclusion:"), 1)
        .replacen("</strong>\nRule:", "</strong></p>\n<p class=\"rule\">Rule:", 1);
    let mut o = format!("<article class=\"card {class}\" id=\"{id}\">\n<div class=\"card-text\">\n<h3>{} <span class=\"badge {class}\">{}</span></h3>\n", esc(title), esc(label));
    o.push_str(&wrap_tables(&colour_verdicts(&html), None));
    if let Some(s) = sources {
        let (summary, list) = s.trim_start().split_once('\n').unwrap_or((s, ""));
        let _ = write!(o, "<details class=\"sources\"><summary>{}</summary>\n{}</details>\n", esc(summary.trim_end_matches(':')), to_html(Parser::new_ext(list, options()).map(literal)));
    }
    o.push_str("</div>\n");
    if let Some(svg) = svg {
        let _ = write!(o, "<figure class=\"card-plot\">{}<figcaption>{} / {}: the card's pairs, each code layout's median as a dot</figcaption></figure>\n", svg_inline(svg), esc(c.spec.study), esc(c.spec.case));
    }
    o.push_str("</article>\n");
    o
}

/// An SVG file's text as an element of the page (from its `<svg`, without an XML declaration).
fn svg_inline(svg: &str) -> &str {
    &svg[svg.find("<svg").unwrap_or(0)..]
}

/// The page's style: a system font, a sidebar of contents beside the text on a wide screen
/// (above it on a narrow one), tables in boxes that scroll sideways, verdict colours.
const STYLE: &str = r#"
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--accent:#0969da;
--good:#1a7f37;--good-bg:#dafbe1;--bad:#cf222e;--bad-bg:#ffebe9;--partial:#9a6700;--partial-bg:#fff8c5;--none:#59636e;--none-bg:#eff2f5}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 -apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
header.top{padding:1.1rem 2rem .9rem;border-bottom:1px solid var(--line);background:var(--soft)}
header.top h1{margin:0 0 .3rem;font-size:1.6rem}
header.top .meta{margin:0;color:var(--muted);font-size:.9rem}
header.top .meta b{color:var(--fg);font-weight:600}
.page{display:grid;grid-template-columns:15.5rem minmax(0,1fr);gap:0 2rem;max-width:118rem;margin:0 auto;padding:0 2rem}
nav.toc{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto;padding:1rem 0 2rem;font-size:.84rem}
nav.toc h2{font-size:.75rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);margin:0 0 .4rem}
nav.toc ul{list-style:none;margin:0;padding:0}nav.toc li{margin:.1rem 0}
nav.toc li.l3{padding-left:.9rem;font-size:.8rem}nav.toc li.l2{margin-top:.45rem;font-weight:600}
main{min-width:0;padding:.5rem 0 4rem}
h2{font-size:1.35rem;margin:2rem 0 .6rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
h3{font-size:1.08rem;margin:1.5rem 0 .5rem}
p,li{max-width:62rem}
code{font:.85em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;background:var(--soft);padding:.1em .3em;border-radius:4px}
pre{background:var(--soft);padding:.7rem;border-radius:6px;overflow-x:auto}pre code{padding:0;background:none}
blockquote{margin:.6rem 0;padding:.3rem .9rem;border-left:4px solid var(--line);color:var(--muted);font-style:italic}
blockquote p{margin:.2rem 0}
.table-wrap{max-width:100%;overflow-x:auto;margin:.4rem 0 1.1rem}
table{border-collapse:collapse;font-size:.84rem;font-variant-numeric:tabular-nums}
th,td{border:1px solid var(--line);padding:.22rem .55rem;vertical-align:top}
th{background:var(--soft);text-align:left;white-space:nowrap}
tr:nth-child(even) td{background:#fbfcfd}
td code{white-space:nowrap}
.v{display:inline-block;padding:0 .45em;border-radius:1em;font-weight:600;font-size:.92em;white-space:nowrap}
.v.faster{color:var(--good);background:var(--good-bg)}.v.slower{color:var(--bad);background:var(--bad-bg)}
.v.unresolved{color:var(--none);background:var(--none-bg)}.v.layout{color:var(--partial);background:var(--partial-bg)}
.v.missing{color:var(--muted);font-weight:400;font-style:italic}
.flag{color:var(--bad);font-weight:700}
li>p{margin:.15rem 0}
.cards{display:grid;gap:1.2rem}
.card{display:grid;grid-template-columns:minmax(0,1.15fr) minmax(0,1fr);gap:1.2rem;border:1px solid var(--line);border-left:6px solid var(--none);border-radius:8px;padding:.9rem 1.1rem;background:var(--bg);box-shadow:0 1px 3px rgba(31,35,40,.08)}
.card.good{border-left-color:var(--good)}.card.bad{border-left-color:var(--bad)}.card.partial{border-left-color:var(--partial)}
.card h3{margin:.1rem 0 .4rem}
.card p{margin:.35rem 0}
.badge{display:inline-block;vertical-align:middle;margin-left:.5rem;padding:.05rem .55rem;border-radius:1em;font-size:.75rem;font-weight:600;text-transform:uppercase;letter-spacing:.03em}
.badge.good{color:var(--good);background:var(--good-bg)}.badge.bad{color:var(--bad);background:var(--bad-bg)}
.badge.partial{color:var(--partial);background:var(--partial-bg)}.badge.none{color:var(--none);background:var(--none-bg)}
.conclusion{padding:.45rem .7rem;border-radius:6px;background:var(--none-bg)}
.conclusion.good{background:var(--good-bg)}.conclusion.bad{background:var(--bad-bg)}.conclusion.partial{background:var(--partial-bg)}
.rule{font-size:.78rem;color:var(--muted)}
details.sources{font-size:.84rem;margin-top:.4rem}details.sources summary{cursor:pointer;color:var(--accent)}
details.sources li{margin:.2rem 0}
figure{margin:0}
.card-plot{align-self:start;text-align:center}
.card-plot figcaption,.plot figcaption{font-size:.78rem;color:var(--muted)}
svg{max-width:100%;height:auto}
.plot{margin:.5rem 0 1rem}
@media (max-width:1100px){.page{grid-template-columns:minmax(0,1fr)}nav.toc{position:static;max-height:none;border-bottom:1px solid var(--line)}.card{grid-template-columns:minmax(0,1fr)}}
"#;

/// The page: `svgs` are (study, SVG) pairs, each placed after its study's heading and beside
/// the seed card of that study.
pub fn page(r: &Report, svgs: &[(String, String)]) -> String {
    let svg_of = |s: &str| svgs.iter().find(|(n, _)| n == s).map(|(_, x)| x.as_str());
    let mut taken: Vec<String> = Vec::new();
    let mut toc: Vec<Toc> = Vec::new();
    let mut body = String::new();

    // The seed cards, as cards.
    let cards = seeds::report_cards(r);
    let cards_md = seeds::markdown(r);
    if !cards.is_empty() {
        let id = slug("seed cards", &mut taken);
        toc.push(Toc { level: 2, id: id.clone(), title: "Seed cards".into() });
        let _ = writeln!(body, "<section id=\"{id}\">\n<h2>Seed cards</h2>");
        // The section's lead paragraph, as report.md has it.
        let intro = cards_md.strip_prefix("## Seed cards\n\n").and_then(|t| t.split("\n\n").next()).unwrap_or("");
        body.push_str(&to_html(Parser::new_ext(intro, options()).map(literal)));
        body.push_str("<div class=\"cards\">\n");
        for c in &cards {
            body.push_str(&card(c, card_svg(r, c).as_deref(), &mut taken, &mut toc));
        }
        body.push_str("</div>\n</section>\n");
    }

    // The rest of report.md, section by section (a section per `##` heading).
    let md = super::markdown(r);
    let rest = md.strip_prefix("# hotloops report\n\n").unwrap_or(&md);
    let rest = if cards_md.is_empty() { rest.to_string() } else { rest.replacen(&cards_md, "", 1) };
    let mut events = Parser::new_ext(&rest, options()).map(literal).peekable();
    let mut section: Vec<Event> = Vec::new();
    let mut study: Option<String> = None;
    let mut open = false;
    let flush = |section: &mut Vec<Event>, study: &Option<String>, body: &mut String| {
        if !section.is_empty() {
            body.push_str(&wrap_tables(&colour_verdicts(&to_html(section.drain(..))), study.as_deref()));
        }
    };
    while let Some(e) = events.next() {
        let Event::Start(Tag::Heading { level, .. }) = e else {
            section.push(e);
            continue;
        };
        let mut inner = Vec::new();
        for x in events.by_ref() {
            if matches!(x, Event::End(TagEnd::Heading(_))) {
                break;
            }
            inner.push(x);
        }
        let text = plain(&inner);
        let title = to_html(inner.iter().cloned()).trim().trim_start_matches("<p>").trim_end_matches("</p>").to_string();
        match level {
            HeadingLevel::H1 | HeadingLevel::H2 => {
                flush(&mut section, &study, &mut body);
                if open {
                    body.push_str("</section>\n");
                }
                study = r.studies.iter().find(|s| s.name == text).map(|s| s.name.clone());
                let id = match &study {
                    Some(s) => {
                        taken.push(format!("study-{s}"));
                        format!("study-{s}")
                    }
                    None => slug(&text, &mut taken),
                };
                toc.push(Toc { level: 2, id: id.clone(), title: title.clone() });
                let _ = writeln!(body, "<section id=\"{id}\">\n<h2>{title}</h2>");
                open = true;
                if let Some(svg) = study.as_deref().and_then(svg_of) {
                    let _ = writeln!(body, "<figure class=\"plot\">{}</figure>", svg_inline(svg));
                }
            }
            _ => {
                let id = slug(&text, &mut taken);
                let n = if level == HeadingLevel::H3 { 3 } else { 4 };
                if n == 3 {
                    // Under a study the case name is enough (the study heads the list).
                    let short = study.as_deref().and_then(|s| text.strip_prefix(&format!("{s} / "))).map(esc).unwrap_or_else(|| title.clone());
                    toc.push(Toc { level: 3, id: id.clone(), title: short });
                }
                section.push(Event::Html(CowStr::from(format!("<h{n} id=\"{id}\">{title}</h{n}>\n"))));
            }
        }
    }
    flush(&mut section, &study, &mut body);
    if open {
        body.push_str("</section>\n");
    }

    let mut nav = String::from("<nav class=\"toc\" aria-label=\"Contents\">\n<h2>Contents</h2>\n<ul>\n");
    for t in &toc {
        let _ = writeln!(nav, "<li class=\"l{}\"><a href=\"#{}\">{}</a></li>", t.level, t.id, t.title);
    }
    nav.push_str("</ul>\n</nav>\n");

    let p = &r.provenance;
    let c = &r.config;
    let meta = format!(
        "<b>{}</b> ({}{}) on {} &middot; commit <code>{}{}</code> &middot; {} size, {} code layout(s), {} ms a pair &middot; {:.0} s &middot; {}",
        esc(&p.cpu_name),
        esc(&p.microarch),
        if p.hypervisor { ", VM" } else { "" },
        esc(&p.host),
        esc(&p.commit[..p.commit.len().min(12)]),
        if p.dirty { "+dirty" } else { "" },
        esc(c.size.name()),
        c.layouts.len().max(1),
        c.budget_ms,
        c.elapsed_s,
        esc(&p.date)
    );
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>hotloops report: {} ({})</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header class=\"top\">\n<h1>hotloops report</h1>\n<p class=\"meta\">{meta}</p>\n</header>\n<div class=\"page\">\n{nav}<main>\n{body}</main>\n</div>\n</body>\n</html>\n",
        esc(&p.cpu_name),
        esc(&p.date)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved() -> Report {
        crate::report::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("analysis/kvm-amd-epyc-2core/report.json")).unwrap()
    }

    #[test]
    fn verdict_cells_are_coloured_and_other_cells_are_not() {
        let h = colour_verdicts("<td>faster</td><td style=\"text-align: left\">not resolved</td><td>faster than</td>");
        assert!(h.contains("<td><span class=\"v faster\">faster</span></td>"), "{h}");
        assert!(h.contains("<span class=\"v unresolved\">not resolved</span>"), "{h}");
        assert!(h.contains("<td>faster than</td>"), "{h}");
        let f = colour_verdicts("<td>slower *</td>");
        assert!(f.contains("<span class=\"v slower\">slower</span> <span class=\"flag\""), "{f}");
        let w = wrap_tables("<table><tr><td>1</td></tr></table>", Some("s"));
        assert_eq!(w, "<div class=\"table-wrap\"><table data-study=\"s\"><tr><td>1</td></tr></table></div>");
    }

    #[test]
    fn slugs_are_unique_and_plain() {
        let mut t = Vec::new();
        assert_eq!(slug("local-index / table3", &mut t), "local-index-table3");
        assert_eq!(slug("local-index / table3", &mut t), "local-index-table3-2");
        assert_eq!(slug("***", &mut t), "section");
    }

    #[test]
    fn prose_that_looks_like_a_tag_is_text() {
        let h = to_html(Parser::new_ext("run `x` with <id> here\n\n<div>x</div>\n", options()).map(literal));
        assert!(h.contains("&lt;id&gt;") && h.contains("&lt;div&gt;") && !h.contains("<div>"), "{h}");
    }

    /// The saved report's page: the cards at the top as cards (a quotation, a table, whole
    /// source items), every study's section with its plot, a table of contents linking each.
    #[test]
    fn the_saved_reports_page_has_cards_contents_and_whole_lists() {
        let r = saved();
        let svgs: Vec<(String, String)> = r.studies.iter().map(|s| (s.name.clone(), crate::report::plot::study_svg(&r, s).unwrap())).collect();
        let h = page(&r, &svgs);
        let cards = seeds::report_cards(&r);
        assert_eq!(h.matches("<article class=\"card ").count(), cards.len());
        assert!(h.find("<article class=\"card ").unwrap() < h.find("<section id=\"headline\">").unwrap(), "the cards first");
        assert_eq!(h.matches("<blockquote>").count(), cards.len(), "each card's quotation is a block quote");
        assert!(!h.contains("<p>&gt;") && !h.contains("\n&gt; "), "no quotation mark shown as text");
        for c in &cards {
            // Each source line is one list item, whole: its item count is the card's.
            let md = seeds::render(c, true);
            let items = md.lines().filter(|l| l.starts_with("- ")).count();
            let id = format!("id=\"seed-{}\"", c.spec.seed);
            let card = &h[h.find(&id).unwrap()..];
            let card = &card[..card.find("</article>").unwrap()];
            assert_eq!(card.matches("<li>").count(), items, "seed {}", c.spec.seed);
            assert!(card.contains("<svg"), "seed {}: the plot beside the card", c.spec.seed);
            assert!(card.contains("class=\"conclusion "), "seed {}", c.spec.seed);
        }
        for s in &r.studies {
            assert!(h.contains(&format!("<section id=\"study-{}\">", s.name)), "{}", s.name);
            assert!(h.contains(&format!("<li class=\"l2\"><a href=\"#study-{}\">", s.name)), "{} in the contents", s.name);
        }
        assert!(h.contains("<span class=\"v faster\">faster</span>"), "verdicts coloured");
        assert!(!h.contains("<table>") || h.matches("<div class=\"table-wrap\">").count() == h.matches("<table").count(), "every table in its box");
        assert!(!h.contains("<script") && !h.contains("src=\"http") && !h.contains("url(") && !h.contains("@import"), "self-contained");
    }
}
