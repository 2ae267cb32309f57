//! SVG plots (plotters): per study, every variant's time ratio against its baseline with its
//! 95% interval, the A/A control beside it, one column per case (and per host in `compare`).

use super::{Report, StudyReport};
use anyhow::{Result, anyhow};
use plotters::prelude::*;

/// One point of a ratio plot.
#[derive(Clone, Debug)]
pub struct RatioPoint {
    /// X label.
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

/// Draw ratio points with error bars and a line at 1.
pub fn ratio_svg(title: &str, points: &[RatioPoint]) -> Result<String> {
    let mut svg = String::new();
    {
        let width = (160 + 90 * points.len().max(1)) as u32;
        let root = SVGBackend::with_string(&mut svg, (width.max(640), 420)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
        let (mut lo, mut hi) = (1.0f64, 1.0f64);
        for p in points {
            lo = lo.min(p.lo);
            hi = hi.max(p.hi);
        }
        let pad = ((hi - lo) * 0.15).max(0.005);
        let n = points.len().max(1) as f64;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(110)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5f64..n - 0.5, (lo - pad)..(hi + pad))
            .map_err(|e| anyhow!("{e}"))?;
        let labels: Vec<String> = points.iter().map(|p| p.label.clone()).collect();
        chart
            .configure_mesh()
            .x_labels(points.len().max(1))
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 { labels.get(i as usize).cloned().unwrap_or_default() } else { String::new() }
            })
            .x_label_style(("sans-serif", 10).into_font().transform(FontTransform::Rotate90))
            .y_desc("time / baseline (median, 95% CI)")
            .disable_x_mesh()
            .draw()
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .draw_series(LineSeries::new(vec![(-0.5, 1.0), (n - 0.5, 1.0)], BLACK.mix(0.5)))
            .map_err(|e| anyhow!("{e}"))?;
        chart
            .draw_series(points.iter().enumerate().map(|(i, p)| {
                let color = if p.control { RGBColor(140, 140, 140) } else { RGBColor(31, 119, 180) };
                ErrorBar::new_vertical(i as f64, p.lo, p.ratio, p.hi, color.filled(), 10)
            }))
            .map_err(|e| anyhow!("{e}"))?;
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    Ok(svg)
}

/// The plot of one study in one report.
pub fn study_svg(r: &Report, s: &StudyReport) -> Result<String> {
    let mut pts = Vec::new();
    for c in &s.cases {
        pts.push(RatioPoint { label: format!("{} A/A", c.name), ratio: c.aa.median_ratio, lo: c.aa.ci_low, hi: c.aa.ci_high, control: true });
        for p in &c.pairs {
            let v = p.variant.rsplit('/').next().unwrap_or(&p.variant);
            pts.push(RatioPoint { label: format!("{} {v}", c.name), ratio: p.median_ratio, lo: p.ci_low, hi: p.ci_high, control: false });
        }
    }
    let title = format!("{} on {} ({})", s.name, r.provenance.cpu_name, r.provenance.host);
    ratio_svg(&title, &pts)
}
