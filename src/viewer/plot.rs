//! The panel's frame-time plot: CPU frame time (the `frame` scope) and GPU frame time (every
//! pass of a frame, from timestamps) over the last frames, with 16.7 ms (60 Hz) and 33.3 ms
//! (30 Hz) reference lines and a labelled axis.
//!
//! The vertical scale follows the 95th percentile of what is shown (with headroom), not the
//! maximum, so one spike (a rebuild, a shader compile) does not flatten the rest; spikes above
//! the scale are clipped to the top edge.

use std::collections::VecDeque;

use super::stats::FRAME_TIMES_KEPT;

const CPU_COLOR: egui::Color32 = egui::Color32::LIGHT_GREEN;
const GPU_COLOR: egui::Color32 = egui::Color32::from_rgb(255, 170, 60);
/// Reference frame times in ms: 60 Hz and 30 Hz.
const REFERENCES: [f32; 2] = [1000.0 / 60.0, 1000.0 / 30.0];

/// The top of the plot for these times: the 95th percentile plus a quarter, rounded up to a
/// round value (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10ⁿ), at least 1 ms.
pub(crate) fn scale_ms(series: &[&VecDeque<f32>]) -> f32 {
    let mut all: Vec<f32> = series.iter().flat_map(|s| s.iter().copied()).filter(|t| t.is_finite()).collect();
    if all.is_empty() {
        return 1.0;
    }
    all.sort_by(f32::total_cmp);
    let p95 = all[((all.len() - 1) as f32 * 0.95).round() as usize];
    nice_ceiling((p95 * 1.25).max(1.0))
}

fn nice_ceiling(value: f32) -> f32 {
    let magnitude = 10f32.powf(value.log10().floor());
    [1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|&v| v >= value)
        .unwrap_or(10.0 * magnitude)
}

/// Draws the plot over the panel's width, with its title above and the newest times below.
pub(crate) fn frame_time_plot(ui: &mut egui::Ui, cpu: &VecDeque<f32>, gpu: &VecDeque<f32>) {
    ui.label("Frame time (ms; lines at 16.7 and 33.3)");
    let axis_width = 34.0;
    let (outer, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), 90.0), egui::Sense::hover());
    // Room above and below for the top and bottom axis values.
    let rect = egui::Rect::from_min_max(
        egui::pos2(outer.left() + axis_width, outer.top() + 5.0),
        egui::pos2(outer.right(), outer.bottom() - 5.0),
    );
    let painter = ui.painter_at(outer);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let top = scale_ms(&[cpu, gpu]);
    let y = |ms: f32| rect.bottom() - rect.height() * (ms / top).clamp(0.0, 1.0);
    let label = |ms: f32, color: egui::Color32| {
        painter.text(
            egui::pos2(rect.left() - 3.0, y(ms)),
            egui::Align2::RIGHT_CENTER,
            format!("{ms:.1}"),
            egui::FontId::monospace(9.0),
            color,
        );
    };
    // Axis values at 0, half and the top; the reference lines are labelled where the label
    // does not run into another (on a 500 ms scale, 16.7 and 33.3 sit on top of 0).
    let mut labelled: Vec<f32> = Vec::new();
    for ms in [0.0, top / 2.0, top] {
        painter.hline(rect.x_range(), y(ms), egui::Stroke::new(1.0, egui::Color32::from_gray(45)));
        label(ms, egui::Color32::GRAY);
        labelled.push(y(ms));
    }
    for reference in REFERENCES.into_iter().filter(|&r| r < top) {
        painter.hline(rect.x_range(), y(reference), egui::Stroke::new(1.0, egui::Color32::from_gray(110)));
        if labelled.iter().all(|&other| (other - y(reference)).abs() >= 10.0) {
            label(reference, egui::Color32::from_gray(170));
            labelled.push(y(reference));
        }
    }
    for (times, color) in [(gpu, GPU_COLOR), (cpu, CPU_COLOR)] {
        // Newest at the right edge, so both series line up in time.
        let offset = FRAME_TIMES_KEPT - times.len();
        let points: Vec<egui::Pos2> = times
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                egui::pos2(rect.left() + rect.width() * (offset + i) as f32 / (FRAME_TIMES_KEPT - 1) as f32, y(t))
            })
            .collect();
        painter.add(egui::Shape::line(points, egui::Stroke::new(1.0, color)));
    }
    ui.horizontal(|ui| {
        let last = |times: &VecDeque<f32>| times.back().map_or("…".to_string(), |t| format!("{t:.2} ms"));
        ui.colored_label(CPU_COLOR, format!("CPU frame {}", last(cpu)));
        ui.colored_label(GPU_COLOR, format!("GPU queue {}", last(gpu)));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_spike_does_not_set_the_scale() {
        let mut cpu: VecDeque<f32> = std::iter::repeat_n(10.0, 100).collect();
        cpu.push_back(500.0);
        let gpu: VecDeque<f32> = std::iter::repeat_n(6.0, 100).collect();
        assert_eq!(scale_ms(&[&cpu, &gpu]), 15.0);
        assert_eq!(scale_ms(&[&VecDeque::new()]), 1.0);
        assert_eq!(nice_ceiling(37.0), 40.0);
        assert_eq!(nice_ceiling(0.9), 1.0);
    }
}
