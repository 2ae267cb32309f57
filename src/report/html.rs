//! `report.html`: one self-contained page (no scripts, no external files): the report's
//! Markdown (headline, provenance, notes, every table) as HTML, each study's SVG inline after
//! its heading. The Markdown is [`super::markdown`]'s, so the page and `report.md` say the same.

use super::Report;

/// Text as HTML: `&`, `<`, `>`, `"` escaped; `` `code` `` and `**bold**` as markup.
fn inline(text: &str) -> String {
    let esc = text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;");
    let mut out = String::new();
    for (i, part) in esc.split('`').enumerate() {
        if i % 2 == 1 {
            out.push_str(&format!("<code>{part}</code>"));
        } else {
            for (j, p) in part.split("**").enumerate() {
                out.push_str(&if j % 2 == 1 { format!("<b>{p}</b>") } else { p.to_string() });
            }
        }
    }
    out
}

/// The cells of a Markdown table line (`\|` is a pipe inside a cell).
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|');
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                out.last_mut().unwrap().push('|');
                chars.next();
            }
            '|' => out.push(String::new()),
            c => out.last_mut().unwrap().push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

fn table(lines: &[&str], study: Option<&str>) -> String {
    let head = cells(lines[0]);
    let right: Vec<bool> = lines.get(1).map(|s| cells(s).iter().map(|c| c.ends_with(':') && !c.starts_with(':')).collect()).unwrap_or_default();
    let attr = study.map(|s| format!(" data-study=\"{s}\"")).unwrap_or_default();
    let mut t = format!("<table{attr}>\n<tr>");
    for h in &head {
        t.push_str(&format!("<th>{}</th>", inline(h)));
    }
    t.push_str("</tr>\n");
    for l in lines.iter().skip(2) {
        t.push_str("<tr>");
        for (i, c) in cells(l).iter().enumerate() {
            let cls = if right.get(i).copied().unwrap_or(false) { " class=\"num\"" } else { "" };
            t.push_str(&format!("<td{cls}>{}</td>", inline(c)));
        }
        t.push_str("</tr>\n");
    }
    t.push_str("</table>\n");
    t
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:110em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.2em}th,td{border:1px solid #ccc;padding:.2em .6em}\
th{background:#f0f0f0}td.num{text-align:right;font-variant-numeric:tabular-nums}\
code{background:#f6f6f6;padding:0 .2em}section{margin-bottom:2em}svg{max-width:100%;height:auto}";

/// The page: `svgs` are (study, SVG) pairs, each placed after its study's heading.
pub fn page(r: &Report, svgs: &[(String, String)]) -> String {
    let md = super::markdown(r);
    let lines: Vec<&str> = md.lines().collect();
    let mut body = String::new();
    let mut study: Option<String> = None;
    let mut para = String::new();
    let flush = |para: &mut String, body: &mut String| {
        if !para.trim().is_empty() {
            body.push_str(&format!("<p>{}</p>\n", inline(para.trim())));
        }
        para.clear();
    };
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with('|') {
            flush(&mut para, &mut body);
            let start = i;
            while i < lines.len() && lines[i].starts_with('|') {
                i += 1;
            }
            body.push_str(&table(&lines[start..i], study.as_deref()));
            continue;
        }
        if let Some(h) = l.strip_prefix("## ") {
            flush(&mut para, &mut body);
            if study.is_some() {
                body.push_str("</section>\n");
            }
            study = r.studies.iter().find(|s| s.name == h).map(|s| s.name.clone());
            match &study {
                Some(s) => {
                    body.push_str(&format!("<section id=\"study-{s}\">\n<h2>{}</h2>\n", inline(h)));
                    if let Some((_, svg)) = svgs.iter().find(|(n, _)| n == s) {
                        body.push_str(svg.trim_start_matches(|c| c != '<'));
                        body.push('\n');
                    }
                }
                None => body.push_str(&format!("<h2>{}</h2>\n", inline(h))),
            }
        } else if let Some(h) = l.strip_prefix("### ") {
            flush(&mut para, &mut body);
            body.push_str(&format!("<h3>{}</h3>\n", inline(h)));
        } else if let Some(h) = l.strip_prefix("# ") {
            flush(&mut para, &mut body);
            body.push_str(&format!("<h1>{}</h1>\n", inline(h)));
        } else if let Some(item) = l.strip_prefix("- ") {
            flush(&mut para, &mut body);
            body.push_str(&format!("<ul><li>{}</li></ul>\n", inline(item)));
        } else if l.trim().is_empty() {
            flush(&mut para, &mut body);
        } else {
            para.push_str(l);
            para.push(' ');
        }
        i += 1;
    }
    flush(&mut para, &mut body);
    if study.is_some() {
        body.push_str("</section>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>hotloops report: {} ({})</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        inline(&r.provenance.cpu_name),
        inline(&r.provenance.date)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_keep_escaped_pipes_and_markup_is_escaped() {
        assert_eq!(cells("| a \\| b | `c` |"), vec!["a | b".to_string(), "`c`".into()]);
        assert_eq!(inline("x < y & `a<b>` **bold**"), "x &lt; y &amp; <code>a&lt;b&gt;</code> <b>bold</b>");
        let t = table(&["| v | n |", "| :-- | --: |", "| a | 1 |"], Some("s"));
        assert!(t.contains("<table data-study=\"s\">") && t.contains("<td class=\"num\">1</td>") && t.contains("<td>a</td>"), "{t}");
    }
}
