//! `--chart FILE.png`: CPU record time and GPU frame time against object count, log-log, one
//! line per mode.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::report::BenchReport;
use crate::frame::DrawMode;

/// Chart size in pixels; each of the two panels takes half the width.
const WIDTH: u32 = 1400;
const HEIGHT: u32 = 560;

static FONT: &[u8] = include_bytes!("font/DejaVuSans.ttf");

const COLORS: [RGBColor; 5] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
];

fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // The bundled font is a valid TTF; a failure here would only cost the labels.
        let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, FONT);
    });
}

/// Writes the chart as a PNG, atomically ([`crate::output`]). plotters draws into an RGB buffer
/// and the `image` crate encodes it (plotters' own encoder would bring a second, older `image`
/// and `png`).
pub fn write_chart(report: &BenchReport, path: &std::path::Path) -> anyhow::Result<()> {
    register_font();
    let mut rgb = vec![0u8; WIDTH as usize * HEIGHT as usize * 3];
    draw_chart(report, BitMapBackend::with_buffer(&mut rgb, (WIDTH, HEIGHT)).into_drawing_area())?;
    let image = image::RgbImage::from_raw(WIDTH, HEIGHT, rgb).expect("the buffer holds WIDTH × HEIGHT RGB pixels");
    crate::output::write_png(path, &image)?;
    Ok(())
}

fn draw_chart(report: &BenchReport, root: DrawingArea<BitMapBackend<'_>, Shift>) -> anyhow::Result<()> {
    root.fill(&WHITE)?;
    let title = format!(
        "multidraw on {} ({}), indirect validation {}",
        report.adapter.name,
        report.adapter.backend,
        if report.indirect_validation { "on" } else { "off" }
    );
    let root = root.titled(&title, ("sans-serif", 22))?;
    let (left, right) = root.split_horizontally(WIDTH / 2);
    let mut modes: Vec<DrawMode> = Vec::new();
    for row in &report.rows {
        if !modes.contains(&row.mode) {
            modes.push(row.mode);
        }
    }

    type Value = fn(&super::report::Row) -> Option<f64>;
    let panels: [(&str, Value); 2] = [
        ("CPU work per frame: record + CPU cull (ms, median)", |r| Some(r.cpu_record_ms.median + r.cpu_cull_ms.median)),
        ("GPU time per frame (ms, median, timestamps)", |r| r.gpu_ms.as_ref().map(|g| g.total)),
    ];
    for (area, (caption, value)) in [left, right].into_iter().zip(panels.iter()) {
        let points: Vec<(f64, f64)> =
            report.rows.iter().filter_map(|r| value(r).filter(|v| *v > 0.0).map(|v| (r.objects as f64, v))).collect();
        if points.is_empty() {
            area.draw(&Text::new(format!("{caption}: no data"), (40, 60), ("sans-serif", 18)))?;
            continue;
        }
        let (x_min, x_max) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.0), hi.max(p.0)));
        let (y_min, y_max) = points.iter().fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p.1), hi.max(p.1)));
        let mut chart = ChartBuilder::on(&area)
            .caption(*caption, ("sans-serif", 18))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d((x_min * 0.8..x_max * 1.25).log_scale(), (y_min * 0.5..y_max * 2.0).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("objects")
            .y_desc("ms")
            .x_label_formatter(&|x| format!("{}", x.round() as u64))
            .y_label_formatter(&|y| format_ms(*y))
            .label_style(("sans-serif", 13))
            .draw()?;
        for (i, mode) in modes.iter().enumerate() {
            let color = COLORS[i % COLORS.len()];
            let series: Vec<(f64, f64)> = report
                .rows
                .iter()
                .filter(|r| r.mode == *mode)
                .filter_map(|r| value(r).filter(|v| *v > 0.0).map(|v| (r.objects as f64, v)))
                .collect();
            if series.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(series.clone(), color.stroke_width(2)))?
                .label(mode.name())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
            chart.draw_series(series.into_iter().map(|p| Circle::new(p, 4, color.filled())))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()?;
    }
    root.present()?;
    Ok(())
}

/// Milliseconds with three significant digits, without float noise.
fn format_ms(ms: f64) -> String {
    let digits = (2 - ms.abs().log10().floor() as i32).clamp(0, 6) as usize;
    format!("{ms:.digits$}")
}
