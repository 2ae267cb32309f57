//! The one plot module (plotters, SVG), with one palette and one set of axis helpers: ratio
//! plots (per study, one panel per case with every variant's time ratio against its baseline
//! and the 95% interval, the A/A control first in grey; in `compare`, one point per variant
//! and host) and line plots over a parameter (the sweep: cost and faults per query against
//! partitions, a line per variant).

use super::{Report, StudyReport};
use anyhow::{Result, anyhow};
use plotters::prelude::*;

/// One point of a ratio plot.
#[derive(Clone, Debug)]
pub struct RatioPoint {
    /// X label (short: the variant, or variant@host).
    pub label: String,
    /// Median ratio.
    pub ratio: f64,
    /// Interval.
    pub lo: f64,
    /// Interval.
    pub hi: f64,
    /// Is this an A/A control?
    pub control: bool,
    /// Resolved (beyond its interval and the A/A floor): a filled marker; else hollow.
    pub resolved: bool,
    /// The seed's ratio for this point, drawn as a black cross.
    pub seed: Option<f64>,
    /// Each code layout's own median ratio, drawn as small dots beside the point: a pooled
    /// ratio whose layouts disagree shows it.
    pub layouts: Vec<f64>,
}

/// A titled group of points, with the A/A floor drawn as a band around 1 where known.
#[derive(Clone, Debug)]
pub struct Panel {
    /// Panel title.
    pub title: String,
    /// Points, left to right.
    pub points: Vec<RatioPoint>,
    /// The A/A noise floor (relative), drawn as a grey band 1 ± floor.
    pub floor: Option<f64>,
}

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e}")
}

/// The series colours, in order (matplotlib's tab10): the same variant order gets the same
/// colour in every plot.
pub const PALETTE: [RGBColor; 6] =
    [RGBColor(31, 119, 180), RGBColor(214, 39, 40), RGBColor(44, 160, 44), RGBColor(148, 103, 189), RGBColor(255, 127, 14), RGBColor(140, 86, 75)];

/// The colour of A/A controls and reference lines.
pub const CONTROL: RGBColor = RGBColor(150, 150, 150);

/// Colour of the `i`th series.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// An axis range around `lo..hi` with `pad` (relative) on each side; `log` keeps it positive.
pub fn padded(lo: f64, hi: f64, pad: f64, log: bool) -> std::ops::Range<f64> {
    let (lo, hi) = if lo.is_finite() && hi.is_finite() && lo <= hi { (lo, hi) } else { (1.0, 1.0) };
    if log {
        let lo = lo.max(1e-9);
        (lo / (1.0 + pad))..(hi.max(lo) * (1.0 + pad)).max(lo * 1.01)
    } else {
        let span = (hi - lo).abs().max(hi.abs() * 1e-3).max(1e-9);
        (lo - span * pad)..(hi + span * pad)
    }
}

/// Tick labels without trailing noise: integers as integers, others with up to 3 decimals.
pub fn tick(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 { format!("{x:.0}") } else { format!("{x:.3}").trim_end_matches('0').trim_end_matches('.').to_string() }
}

/// Ratios spanning more than this factor get a log axis.
pub const LOG_SPAN: f64 = 10.0;

/// The y range a panel needs (every interval, seed, the floor band and 1) and whether it is
/// drawn on a log axis (the range spans more than [`LOG_SPAN`]).
pub fn ratio_range(p: &Panel) -> (f64, f64, bool) {
    let (mut lo, mut hi) = (1.0f64, 1.0f64);
    let f = p.floor.unwrap_or(0.0);
    let ys = p.points.iter().flat_map(|p| [p.lo, p.hi, p.ratio, p.seed.unwrap_or(1.0)].into_iter().chain(p.layouts.iter().copied()));
    for y in ys.chain([1.0 - f, 1.0 + f]).filter(|y| y.is_finite() && *y > 0.0) {
        lo = lo.min(y);
        hi = hi.max(y);
    }
    (lo, hi, hi / lo > LOG_SPAN)
}

/// Rough width of `text` in pixels at `size` px sans-serif (for canvas sizes that hold it).
fn text_px(text: &str, size: u32) -> u32 {
    (text.chars().count() as u32 * size * 6).div_ceil(10)
}

/// What the markers of these panels mean, printed under the title of a ratio plot.
pub fn ratio_key(panels: &[Panel]) -> String {
    let pts = || panels.iter().flat_map(|p| p.points.iter());
    let mut k = vec!["filled: resolved", "hollow: not resolved"];
    if pts().any(|p| p.seed.is_some()) {
        k.push("x: the seed's ratio");
    }
    if pts().any(|p| !p.layouts.is_empty()) {
        k.push("dots: each code layout's own median");
    }
    if panels.iter().any(|p| p.floor.is_some()) {
        k.push("grey band: A/A floor");
    }
    if pts().any(|p| p.control) {
        k.push("grey point: A/A control");
    }
    k.join("; ")
}

/// Draw panels (two columns) of ratio points with error bars, a line at 1, the A/A band, the
/// seed's ratio, and a log axis where a panel's ratios span more than 10x.
pub fn ratio_svg(title: &str, panels: &[Panel]) -> Result<String> {
    let widest = panels.iter().map(|p| p.points.len()).max().unwrap_or(1).max(1);
    let longest_caption = panels.iter().map(|p| text_px(&p.title, 14)).max().unwrap_or(0);
    let longest_label = panels.iter().flat_map(|p| p.points.iter().map(|x| text_px(&x.label, 11))).max().unwrap_or(0);
    // Many points with long labels (a full report's `c-local@gcc12-upstream` rows) would make a
    // panel thousands of pixels wide: their labels are turned upright and the panels stacked.
    let upright = (longest_label + 16).max(90) * widest as u32 > 1200;
    let cols = if panels.len() > 1 && !upright { 2 } else { 1 };
    let rows = panels.len().div_ceil(cols).max(1);
    let slot = if upright { 34 } else { (longest_label + 16).max(90) };
    let label_area = if upright { longest_label + 16 } else { 30 };
    let panel_h = 290 + label_area;
    // Wide enough for the panel's captions and x labels, and all of it for the title and key.
    let panel_w = (100 + slot * widest as u32).max(longest_caption + 40).max(420);
    let key_text = ratio_key(panels);
    let w = (panel_w * cols as u32).max(text_px(title, 20) + 40).max(text_px(&key_text, 12) + 40);
    let h = 84 + panel_h * rows as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, ("sans-serif", 20)).map_err(err)?;
        let (key, root) = root.split_vertically(24);
        key.draw(&Text::new(key_text.as_str(), (12, 4), ("sans-serif", 12).into_font().color(&BLACK.mix(0.7)))).map_err(err)?;
        let panel_w = w / cols as u32;
        let areas: Vec<_> =
            (0..panels.len()).map(|i| root.clone().shrink(((i % cols) as u32 * panel_w, (i / cols) as u32 * panel_h), (panel_w, panel_h))).collect();
        for (area, panel) in areas.iter().zip(panels) {
            let points = &panel.points;
            let (lo, hi, log) = ratio_range(panel);
            let n = points.len().max(1) as f64;
            let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
            let mut b = ChartBuilder::on(area);
            b.caption(&panel.title, ("sans-serif", 14)).margin(12).x_label_area_size(label_area).y_label_area_size(60);
            let label_font = ("sans-serif", 11).into_font().transform(if upright { FontTransform::Rotate90 } else { FontTransform::None });
            // Two chart types (log or linear y): one drawing routine for both.
            macro_rules! draw {
                ($chart:expr, $y_floor:expr) => {{
                    let mut chart = $chart.map_err(err)?;
                    chart
                        .configure_mesh()
                        .x_labels(points.len().max(1))
                        .x_label_formatter(&|x| {
                            let i = x.round();
                            // Upright labels are drawn below, hanging from their tick.
                            if !upright && (x - i).abs() < 1e-6 && i >= 0.0 { labels.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
                        })
                        .x_label_style(label_font.clone())
                        .y_desc(if log { "time / baseline (log)" } else { "time / baseline" })
                        .y_label_formatter(&|y| tick(*y))
                        // Few ticks, no minor lines: a log axis otherwise crowds its labels.
                        .y_labels(if log { 6 } else { 8 })
                        .light_line_style(WHITE)
                        .disable_x_mesh()
                        .draw()
                        .map_err(err)?;
                    if let Some(f) = panel.floor.filter(|f| *f > 0.0) {
                        chart.draw_series(std::iter::once(Rectangle::new([(-0.5, (1.0 - f).max(lo * 0.99)), (n - 0.5, 1.0 + f)], CONTROL.mix(0.25).filled()))).map_err(err)?;
                    }
                    chart.draw_series(LineSeries::new(vec![(-0.5, 1.0), (n - 0.5, 1.0)], CONTROL)).map_err(err)?;
                    for (i, p) in points.iter().enumerate().filter(|(_, p)| p.ratio.is_finite() && p.ratio > 0.0) {
                        let c = if p.control { CONTROL } else { colour(0) };
                        let x = i as f64;
                        chart.draw_series(std::iter::once(ErrorBar::new_vertical(x, p.lo.max(lo * 0.99), p.ratio, p.hi, c.stroke_width(2), 12))).map_err(err)?;
                        let style = if p.resolved || p.control { c.filled() } else { WHITE.filled() };
                        chart.draw_series([Circle::new((x, p.ratio), 5, style), Circle::new((x, p.ratio), 5, c.stroke_width(2))]).map_err(err)?;
                        let dots = p.layouts.iter().filter(|y| y.is_finite() && **y > 0.0).map(|&y| Circle::new((x - 0.22, y), 3, c.filled()));
                        chart.draw_series(dots).map_err(err)?;
                        if let Some(sd) = p.seed.filter(|s| s.is_finite() && *s > 0.0) {
                            chart.draw_series(std::iter::once(Cross::new((x + 0.18, sd), 6, BLACK.stroke_width(2)))).map_err(err)?;
                        }
                    }
                    if upright {
                        // plotters centres a rotated tick label on its tick, which puts half of
                        // a long one inside the plot: each is drawn from the axis down instead.
                        let base = area.get_base_pixel();
                        for (i, l) in labels.iter().enumerate() {
                            let (px, py) = chart.backend_coord(&(i as f64, $y_floor));
                            area.draw(&Text::new(l.as_str(), (px - base.0 + 6, py - base.1 + 8), label_font.clone())).map_err(err)?;
                        }
                    }
                }};
            }
            if log {
                let y = padded(lo, hi, 0.3, true);
                draw!(b.build_cartesian_2d(-0.5f64..n - 0.5, y.clone().log_scale()), y.start);
            } else {
                let y = padded(lo, hi, 0.12, false);
                draw!(b.build_cartesian_2d(-0.5f64..n - 0.5, y.clone()), y.start);
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A case's panel: the A/A control first, then each pair, with the case's floor.
fn case_panel(r: &Report, s: &StudyReport, c: &super::CaseReport) -> Panel {
    let per_layout = |p: &crate::measure::wallclock::Paired| p.layouts.iter().map(|l| l.median_ratio).collect::<Vec<f64>>();
    let mut pts = vec![RatioPoint {
        label: "A/A".into(),
        ratio: c.aa.median_ratio,
        lo: c.aa.ci_low,
        hi: c.aa.ci_high,
        control: true,
        resolved: false,
        seed: None,
        layouts: per_layout(&c.aa),
    }];
    for p in &c.pairs {
        let row = r.rows.iter().find(|x| x.study == s.name && x.case == c.name && x.variant == p.variant && x.metric == "wall-clock");
        let resolved = row.and_then(|x| x.verdict).is_some_and(|v| matches!(v, crate::measure::wallclock::Verdict::Faster | crate::measure::wallclock::Verdict::Slower));
        pts.push(RatioPoint {
            label: super::short(&p.variant).to_string(),
            ratio: p.median_ratio,
            lo: p.ci_low,
            hi: p.ci_high,
            control: false,
            resolved,
            seed: row.and_then(|x| x.seed_ratio),
            layouts: per_layout(p),
        });
    }
    Panel { title: c.name.clone(), points: pts, floor: Some(c.noise_floor) }
}

/// The plot of one study in one report: a panel per case, A/A first, with the case's floor.
pub fn study_svg(r: &Report, s: &StudyReport) -> Result<String> {
    let panels: Vec<Panel> = s.cases.iter().map(|c| case_panel(r, s, c)).collect();
    ratio_svg(&format!("{}: time vs {} (median, 95% CI) on {}", s.name, s.baseline, r.provenance.cpu_name), &panels)
}

/// Some pairs of one case as a forest plot, a row each (the A/A control first, then `ids` in
/// the case's order): the time ratio and its 95% interval across, each code layout's median as
/// a dot, the A/A floor as a grey band, 1 as a line, the seed's ratio as a cross. Narrow and
/// short, so that it stands readable beside a seed card. None when the case is not there.
pub fn forest_svg(r: &Report, study: &str, case: &str, ids: &[&str]) -> Option<Result<String>> {
    let s = r.studies.iter().find(|s| s.name == study)?;
    let c = s.cases.iter().find(|c| c.name == case)?;
    let mut panel = case_panel(r, s, c);
    let keep: Vec<String> = ids.iter().map(|i| super::short(i).to_string()).collect();
    panel.points.retain(|p| p.control || keep.contains(&p.label));
    Some(forest(&format!("{case}: time vs {}", super::short(&s.baseline)), &panel))
}

fn forest(title: &str, panel: &Panel) -> Result<String> {
    let n = panel.points.len().max(1);
    let label_w = panel.points.iter().map(|p| text_px(&p.label, 14)).max().unwrap_or(40) + 24;
    let key = "filled: resolved; hollow: not; dots: code layouts; x: the seed; band: A/A floor";
    let w = (label_w + 300).max(text_px(title, 17) + 40).max(text_px(key, 12) + 30);
    let h = 78 + 36 * n as u32 + 50;
    let (lo, hi, log) = ratio_range(panel);
    let labels: Vec<String> = panel.points.iter().map(|p| p.label.clone()).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, ("sans-serif", 17)).map_err(err)?;
        let (top, root) = root.split_vertically(22);
        top.draw(&Text::new(key, (12, 4), ("sans-serif", 12).into_font().color(&BLACK.mix(0.7)))).map_err(err)?;
        let mut b = ChartBuilder::on(&root);
        b.margin(10).margin_right(24).x_label_area_size(40).y_label_area_size(label_w);
        // The first point on top: row i is drawn at y = n - 1 - i.
        let row = |i: usize| (n - 1 - i) as f64;
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(err)?;
                chart
                    .configure_mesh()
                    .y_labels(n)
                    .y_label_formatter(&|y| {
                        let i = y.round();
                        if (y - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < n { labels[n - 1 - i as usize].clone() } else { String::new() }
                    })
                    .y_label_style(("sans-serif", 14))
                    .x_desc(if log { "time / baseline (log)" } else { "time / baseline" })
                    .x_label_formatter(&|x| tick(*x))
                    .x_labels(if log { 6 } else { 7 })
                    .x_label_style(("sans-serif", 13))
                    .light_line_style(WHITE)
                    .disable_y_mesh()
                    .draw()
                    .map_err(err)?;
                let top = n as f64 - 0.5;
                if let Some(f) = panel.floor.filter(|f| *f > 0.0) {
                    chart.draw_series(std::iter::once(Rectangle::new([((1.0 - f).max(lo * 0.99), -0.5), (1.0 + f, top)], CONTROL.mix(0.25).filled()))).map_err(err)?;
                }
                chart.draw_series(LineSeries::new(vec![(1.0, -0.5), (1.0, top)], CONTROL)).map_err(err)?;
                for (i, p) in panel.points.iter().enumerate().filter(|(_, p)| p.ratio.is_finite() && p.ratio > 0.0) {
                    let c = if p.control { CONTROL } else { colour(0) };
                    let y = row(i);
                    chart.draw_series(std::iter::once(ErrorBar::new_horizontal(y, p.lo.max(lo * 0.99), p.ratio, p.hi, c.stroke_width(2), 10))).map_err(err)?;
                    let style = if p.resolved || p.control { c.filled() } else { WHITE.filled() };
                    chart.draw_series([Circle::new((p.ratio, y), 6, style), Circle::new((p.ratio, y), 6, c.stroke_width(2))]).map_err(err)?;
                    let dots = p.layouts.iter().filter(|x| x.is_finite() && **x > 0.0).map(|&x| Circle::new((x, y + 0.28), 3, c.filled()));
                    chart.draw_series(dots).map_err(err)?;
                    if let Some(sd) = p.seed.filter(|s| s.is_finite() && *s > 0.0) {
                        chart.draw_series(std::iter::once(Cross::new((sd, y - 0.28), 6, BLACK.stroke_width(2)))).map_err(err)?;
                    }
                }
            }};
        }
        let rows = -0.5f64..n as f64 - 0.5;
        if log {
            draw!(b.build_cartesian_2d(padded(lo, hi, 0.3, true).log_scale(), rows));
        } else {
            draw!(b.build_cartesian_2d(padded(lo, hi, 0.12, false), rows));
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// One line of a line plot.
#[derive(Clone, Debug)]
pub struct Line {
    /// Legend label.
    pub label: String,
    /// (x, y) points, ascending x.
    pub points: Vec<(f64, f64)>,
}

/// One panel of a line plot: every line over the same x axis.
#[derive(Clone, Debug)]
pub struct LinePanel {
    /// Panel title.
    pub title: String,
    /// Y axis label.
    pub y_desc: String,
    /// Logarithmic y axis.
    pub log_y: bool,
    /// The lines, coloured by position.
    pub lines: Vec<Line>,
}

/// Panels stacked vertically, sharing a (log) x axis named `x_desc`, the legend in the first.
pub fn lines_svg(title: &str, x_desc: &str, panels: &[LinePanel]) -> Result<String> {
    let pts = || panels.iter().flat_map(|p| p.lines.iter().flat_map(|l| l.points.iter()));
    if pts().next().is_none() {
        anyhow::bail!("plotting {title}: no points");
    }
    let xmax = pts().map(|p| p.0).fold(1.0f64, f64::max);
    let x = (0.9f64..xmax * 1.1).log_scale();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 60 + 400 * panels.len() as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, ("sans-serif", 16)).map_err(err)?;
        for (k, (area, panel)) in root.split_evenly((panels.len(), 1)).iter().zip(panels).enumerate() {
            let ys = || panel.lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)).filter(|y| y.is_finite() && (!panel.log_y || *y > 0.0));
            let (lo, hi) = (ys().fold(f64::INFINITY, f64::min), ys().fold(f64::NEG_INFINITY, f64::max));
            let mut b = ChartBuilder::on(area);
            b.caption(&panel.title, ("sans-serif", 14)).margin(12).x_label_area_size(40).y_label_area_size(70);
            // Two chart types (log or linear y): one drawing routine for both.
            macro_rules! draw {
                ($chart:expr) => {{
                    let mut chart = $chart.map_err(err)?;
                    chart
                        .configure_mesh()
                        .x_label_formatter(&|x| tick(*x))
                        .y_label_formatter(&|y| tick(*y))
                        .x_desc(x_desc)
                        .y_desc(panel.y_desc.as_str())
                        .draw()
                        .map_err(err)?;
                    for (i, l) in panel.lines.iter().enumerate() {
                        let c = colour(i);
                        let s = chart.draw_series(LineSeries::new(l.points.clone(), c.stroke_width(2))).map_err(err)?;
                        if k == 0 {
                            s.label(l.label.clone()).legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], c.stroke_width(2)));
                        }
                        chart.draw_series(l.points.iter().map(|&(x, y)| Circle::new((x, y), 3, c.filled()))).map_err(err)?;
                    }
                    if k == 0 {
                        chart
                            .configure_series_labels()
                            .position(SeriesLabelPosition::UpperLeft)
                            .background_style(WHITE.mix(0.8))
                            .border_style(BLACK)
                            .draw()
                            .map_err(err)?;
                    }
                }};
            }
            if panel.log_y {
                draw!(b.build_cartesian_2d(x.clone(), padded(lo, hi, 0.5, true).log_scale()));
            } else {
                draw!(b.build_cartesian_2d(x.clone(), padded(lo.min(0.0), hi.max(1.0), 0.1, false)));
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_and_ticks() {
        let r = padded(1.0, 100.0, 0.5, true);
        assert!(r.start > 0.0 && r.start < 1.0 && r.end > 100.0, "{r:?}");
        let r = padded(0.0, 0.0, 0.1, false);
        assert!(r.start < 0.0 && r.end > 0.0, "a flat series still gets an axis: {r:?}");
        assert_eq!((tick(5.0), tick(0.25), tick(1.0 / 3.0)), ("5".to_string(), "0.25".to_string(), "0.333".to_string()));
        assert_eq!(colour(0), colour(PALETTE.len()));
    }

    fn point(ratio: f64, resolved: bool, seed: Option<f64>) -> RatioPoint {
        RatioPoint { label: format!("v{ratio}"), ratio, lo: ratio * 0.9, hi: ratio * 1.1, control: false, resolved, seed, layouts: vec![] }
    }

    #[test]
    fn a_ratio_plot_goes_log_past_10x_and_draws_band_seed_and_hollow_points() {
        let narrow = Panel { title: "narrow".into(), points: vec![point(0.95, true, None), point(1.02, false, None)], floor: Some(0.01) };
        assert!(!ratio_range(&narrow).2, "0.85 to 1.12 stays linear");
        let wide = Panel { title: "wide".into(), points: vec![point(0.02, true, Some(0.5)), point(1.0, false, None)], floor: Some(0.05) };
        let (lo, hi, log) = ratio_range(&wide);
        assert!(log && lo < 0.0181 && hi > 1.09, "{lo} {hi}");
        let title = "a long title that a 420-pixel canvas would clip at its right-hand edge, as an early plot did";
        let svg = ratio_svg(title, &[wide]).unwrap();
        assert!(svg.contains("(log)"), "the y axis says it is logarithmic");
        assert!(svg.contains("x: the seed") && svg.contains("grey band: A/A floor") && !svg.contains("grey point"), "the key names what is drawn");
        let width: u32 = svg.split("width=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
        assert!(width >= text_px(title, 20), "the canvas holds its title: {width}");
        // A hollow (white-filled) marker for the unresolved point, a filled one for the other.
        let marker = |fill: &str| svg.contains(&format!("r=\"5\" opacity=\"1\" fill=\"{fill}\""));
        assert!(marker("#FFFFFF") && marker("#1F77B4"), "{}", &svg[..400]);
    }

    /// A panel of many long-labelled points (a full report's every-configuration rows) stays
    /// readable: upright labels, stacked panels, a canvas far narrower than side by side.
    #[test]
    fn many_long_labels_are_turned_upright_and_panels_stacked() {
        let pts: Vec<RatioPoint> = (0..16).map(|i| RatioPoint { label: format!("c-store-each@gcc12-upstream-{i}"), ..point(1.0, true, None) }).collect();
        let panel = |t: &str| Panel { title: t.into(), points: pts.clone(), floor: Some(0.01) };
        let svg = ratio_svg("t", &[panel("a"), panel("b")]).unwrap();
        let width: u32 = svg.split("width=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
        assert!(width < 1200, "{width}");
        assert!(svg.contains("rotate(90"), "labels turned upright");
        let few = ratio_svg("t", &[Panel { title: "a".into(), points: pts[..3].to_vec(), floor: None }]).unwrap();
        assert!(!few.contains("rotate(90"));
    }

    /// Each layout's own median is a small dot beside the pooled point, inside the axis.
    #[test]
    fn layout_medians_are_drawn_as_dots_and_widen_the_axis() {
        let mut p = point(0.97, true, None);
        let plain = ratio_svg("t", &[Panel { title: "c".into(), points: vec![p.clone()], floor: None }]).unwrap();
        p.layouts = vec![0.93, 1.2];
        let panel = Panel { title: "c".into(), points: vec![p], floor: None };
        assert!(ratio_range(&panel).1 >= 1.2, "the axis holds every layout's median");
        let svg = ratio_svg("t", &[panel]).unwrap();
        let dots = |s: &str| s.matches("r=\"3\"").count();
        assert_eq!((dots(&plain), dots(&svg)), (0, 2));
        assert!(svg.contains("dots: each code layout") && !plain.contains("dots:"));
    }

    /// A forest plot: a row per point, labels readable (the canvas narrow), the same markers.
    #[test]
    fn a_forest_plot_has_a_row_per_point_and_stays_narrow() {
        let mut a = point(0.95, true, Some(0.978));
        a.label = "local".into();
        a.layouts = vec![0.94, 0.96];
        let mut c = point(1.001, false, None);
        c.label = "c-local@clang19-pg".into();
        let aa = RatioPoint { label: "A/A".into(), control: true, ..point(1.0, false, None) };
        let svg = forest("table3-bitmap: time vs store-each", &Panel { title: String::new(), points: vec![aa, a, c], floor: Some(0.02) }).unwrap();
        let width: u32 = svg.split("width=\"").nth(1).unwrap().split('"').next().unwrap().parse().unwrap();
        assert!(width < 700, "{width}");
        for l in ["A/A", "local", "c-local@clang19-pg"] {
            assert!(svg.contains(&format!(">\n{l}\n</text>")), "{l} labels its row");
        }
        assert_eq!(svg.matches("r=\"3\"").count(), 2, "a dot per layout");
        assert!(svg.contains("r=\"6\" opacity=\"1\" fill=\"#FFFFFF\""), "the unresolved point hollow");
    }

    #[test]
    fn a_block_plot_of_many_blocks_draws_about_two_thousand_points_a_series() {
        let series = |n: usize| vec![BlockSeries { label: "B/A".into(), ratios: (0..n).map(|i| 1.0 + (i % 7) as f64 * 0.001).collect(), median: 1.003, ci: (1.0, 1.006), control: false }];
        let circles = |svg: &str| svg.matches("<circle").count();
        let small = blocks_svg("t", "ratio", &series(500), &[0, 250]).unwrap();
        assert_eq!(circles(&small), 500);
        let big = blocks_svg("t", "ratio", &series(20_000), &[0, 10_000]).unwrap();
        assert!((1_900..=2_000).contains(&circles(&big)), "{}", circles(&big));
        assert!(big.contains("every 10th block drawn"));
    }

    #[test]
    fn a_line_plot_has_every_label_and_refuses_no_points() {
        let lines = vec![
            Line { label: "first".into(), points: vec![(1.0, 0.5), (10.0, 8.0)] },
            Line { label: "second".into(), points: vec![(1.0, 0.4), (10.0, 0.9)] },
        ];
        let svg = lines_svg("t", "partitions", &[LinePanel { title: "cost".into(), y_desc: "us".into(), log_y: true, lines: lines.clone() }, LinePanel { title: "faults".into(), y_desc: "n".into(), log_y: false, lines }]).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("first") && svg.contains("second") && svg.contains("faults"), "{}", &svg[..200.min(svg.len())]);
        assert!(lines_svg("t", "x", &[LinePanel { title: "e".into(), y_desc: "y".into(), log_y: false, lines: vec![] }]).is_err());
    }
}

/// One series of a [`blocks_svg`] plot: a ratio per block, in the order measured.
#[derive(Clone, Debug)]
pub struct BlockSeries {
    /// Legend label.
    pub label: String,
    /// Ratios.
    pub ratios: Vec<f64>,
    /// Its median and 95% interval, drawn as a line and a band.
    pub median: f64,
    /// See [`BlockSeries::median`].
    pub ci: (f64, f64),
    /// An A/A control: grey.
    pub control: bool,
}

/// Per-block ratios over the run (x: block), one series per pair: the spread a verdict's
/// interval summarises, and any drift or epoch step it would hide.
pub fn blocks_svg(title: &str, y_desc: &str, series: &[BlockSeries], epoch_starts: &[usize]) -> Result<String> {
    let ys = || series.iter().flat_map(|s| s.ratios.iter().copied()).filter(|y| y.is_finite() && *y > 0.0);
    if ys().next().is_none() {
        anyhow::bail!("plotting {title}: no points");
    }
    // The bulk, not the outliers, sets the axis: 1st to 99th percentile, then padded.
    let mut all: Vec<f64> = ys().collect();
    all.sort_by(|a, b| a.total_cmp(b));
    let (lo, hi) = (crate::measure::stats::percentile_sorted(&all, 0.01).min(0.99), crate::measure::stats::percentile_sorted(&all, 0.99).max(1.01));
    let n = series.iter().map(|s| s.ratios.len()).max().unwrap_or(1) as f64;
    // A pgbench run has tens of thousands of blocks: the plot draws at most about 2,000 points
    // a series (every k-th block; the medians and bands are over all of them), keeping the file
    // small without hiding the spread.
    let stride = (n as usize).div_ceil(2_000).max(1);
    let x_desc = if stride > 1 { format!("block (dashed: a new postmaster epoch; every {stride}th block drawn)") } else { "block (dashed: a new postmaster epoch)".to_string() };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (960, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, ("sans-serif", 16)).map_err(err)?;
        let y = padded(lo, hi, 0.08, false);
        let mut chart = ChartBuilder::on(&root).margin(12).x_label_area_size(36).y_label_area_size(70).build_cartesian_2d(-0.5f64..n - 0.5, y.clone()).map_err(err)?;
        chart.configure_mesh().x_desc(x_desc.as_str()).y_desc(y_desc).y_label_formatter(&|v| tick(*v)).light_line_style(WHITE).draw().map_err(err)?;
        for &e in epoch_starts.iter().filter(|e| **e > 0) {
            let x = e as f64 - 0.5;
            chart.draw_series(DashedLineSeries::new(vec![(x, y.start), (x, y.end)], 4, 4, CONTROL.mix(0.6).into())).map_err(err)?;
        }
        chart.draw_series(LineSeries::new(vec![(-0.5, 1.0), (n - 0.5, 1.0)], BLACK.mix(0.5))).map_err(err)?;
        for (i, s) in series.iter().enumerate() {
            let c = if s.control { CONTROL } else { colour(i) };
            chart.draw_series(std::iter::once(Rectangle::new([(-0.5, s.ci.0), (n - 0.5, s.ci.1)], c.mix(0.18).filled()))).map_err(err)?;
            chart
                .draw_series(LineSeries::new(vec![(-0.5, s.median), (n - 0.5, s.median)], c.stroke_width(2)))
                .map_err(err)?
                .label(format!("{} (median {:.4} [{:.4}, {:.4}])", s.label, s.median, s.ci.0, s.ci.1))
                .legend(move |(x, yy)| Rectangle::new([(x, yy - 4), (x + 14, yy + 4)], c.filled()));
            let pts = s.ratios.iter().enumerate().step_by(stride).filter(|(_, r)| r.is_finite() && **r >= y.start && **r <= y.end).map(|(k, r)| Circle::new((k as f64, *r), 2, c.mix(0.7).filled()));
            chart.draw_series(pts).map_err(err)?;
        }
        chart.configure_series_labels().background_style(WHITE.mix(0.85)).border_style(BLACK.mix(0.3)).position(SeriesLabelPosition::UpperRight).draw().map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}
