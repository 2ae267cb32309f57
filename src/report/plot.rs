//! SVG plots (plotters): per study, one panel per case with every variant's time ratio against
//! its baseline and the 95% interval, the A/A control first (grey); in `compare`, one point
//! per variant and host.

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
}

/// A titled group of points.
pub type Panel = (String, Vec<RatioPoint>);

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plotting: {e}")
}

/// Draw panels (two columns) of ratio points with error bars and a line at 1.
pub fn ratio_svg(title: &str, panels: &[Panel]) -> Result<String> {
    let cols = if panels.len() > 1 { 2 } else { 1 };
    let rows = panels.len().div_ceil(cols).max(1);
    let widest = panels.iter().map(|p| p.1.len()).max().unwrap_or(1).max(1);
    let panel_w = (120 + 110 * widest).max(420) as u32;
    let (w, h) = (panel_w * cols as u32, 60 + 300 * rows as u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let root = root.titled(title, ("sans-serif", 20)).map_err(err)?;
        let areas = root.split_evenly((rows, cols));
        for (area, (ptitle, points)) in areas.iter().zip(panels) {
            let (mut lo, mut hi) = (1.0f64, 1.0f64);
            for p in points.iter().filter(|p| p.lo.is_finite() && p.hi.is_finite()) {
                lo = lo.min(p.lo);
                hi = hi.max(p.hi);
            }
            let pad = ((hi - lo) * 0.15).max(0.004);
            let n = points.len().max(1) as f64;
            let mut chart = ChartBuilder::on(area)
                .caption(ptitle, ("sans-serif", 14))
                .margin(10)
                .x_label_area_size(30)
                .y_label_area_size(60)
                .build_cartesian_2d(-0.5f64..n - 0.5, (lo - pad)..(hi + pad))
                .map_err(err)?;
            let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
            chart
                .configure_mesh()
                .x_labels(points.len().max(1))
                .x_label_formatter(&|x| {
                    let i = x.round();
                    if (x - i).abs() < 1e-6 && i >= 0.0 { labels.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
                })
                .x_label_style(("sans-serif", 11))
                .y_desc("time / baseline")
                .y_label_formatter(&|y| format!("{y:.3}"))
                .disable_x_mesh()
                .draw()
                .map_err(err)?;
            chart.draw_series(LineSeries::new(vec![(-0.5, 1.0), (n - 0.5, 1.0)], BLACK.mix(0.4))).map_err(err)?;
            chart
                .draw_series(points.iter().enumerate().filter(|(_, p)| p.ratio.is_finite()).map(|(i, p)| {
                    let color = if p.control { RGBColor(150, 150, 150) } else { RGBColor(31, 119, 180) };
                    ErrorBar::new_vertical(i as f64, p.lo, p.ratio, p.hi, color.filled(), 12)
                }))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The plot of one study in one report: a panel per case, A/A first.
pub fn study_svg(r: &Report, s: &StudyReport) -> Result<String> {
    let panels: Vec<Panel> = s
        .cases
        .iter()
        .map(|c| {
            let mut pts = vec![RatioPoint { label: "A/A".into(), ratio: c.aa.median_ratio, lo: c.aa.ci_low, hi: c.aa.ci_high, control: true }];
            for p in &c.pairs {
                let v = p.variant.rsplit('/').next().unwrap_or(&p.variant).to_string();
                pts.push(RatioPoint { label: v, ratio: p.median_ratio, lo: p.ci_low, hi: p.ci_high, control: false });
            }
            (c.name.clone(), pts)
        })
        .collect();
    ratio_svg(&format!("{}: time vs {} (median, 95% CI) on {}", s.name, s.baseline, r.provenance.cpu_name), &panels)
}
