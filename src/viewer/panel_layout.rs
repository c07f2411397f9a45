//! `--panel-layout FILE` (a hidden test flag): where the side panel's items landed, written as
//! JSON when a scripted run ends, so `tests/viewer.rs` can check the layout without reading
//! pixels.
//!
//! A pixel test of a panel cannot tell a label from a value; egui knows every widget's
//! rectangle. The run scrolls the panel to its end every frame, and the file records, in
//! points, the window, the panel's last item and the clip it was painted in on the last frame,
//! plus every row of the numbers whose label ran into its value on any frame (a layout that is
//! right only once it has settled fails there).

use std::path::Path;

use anyhow::{Context, Result};
use serde::Serialize;

use super::ui::PanelLayout;

/// Rectangles as `[left, top, right, bottom]` in points.
type Rect = [f32; 4];

fn rect(r: egui::Rect) -> Rect {
    [r.min.x, r.min.y, r.max.x, r.max.y]
}

/// A numbers row whose label and value overlapped.
#[derive(Serialize)]
struct OverlappingRow {
    frame: u64,
    name: String,
    label: Rect,
    value: Rect,
}

/// What the file holds.
#[derive(Default, Serialize)]
pub(crate) struct PanelLayoutLog {
    /// Frames recorded.
    frames: u64,
    /// The window's area on the last frame.
    screen: Rect,
    /// The panel's last item on the last frame.
    last_item: Rect,
    /// The area the last item could be seen in: its ui's clip.
    last_item_clip: Rect,
    /// The numbers rows of the last frame, by name.
    rows: Vec<String>,
    overlapping_rows: Vec<OverlappingRow>,
}

impl PanelLayoutLog {
    /// Takes a frame's layout.
    pub fn record(&mut self, frame: u64, screen: egui::Rect, layout: &PanelLayout) {
        self.frames += 1;
        self.screen = rect(screen);
        self.last_item = rect(layout.last_item);
        self.last_item_clip = rect(layout.last_item_clip);
        self.rows = layout.rows.iter().map(|(name, _, _)| name.clone()).collect();
        // Half a point of slack: egui rounds widget edges to pixels.
        let overlapping = layout.rows.iter().filter(|(_, label, value)| label.max.x > value.min.x + 0.5);
        self.overlapping_rows.extend(overlapping.map(|(name, label, value)| OverlappingRow {
            frame,
            name: name.clone(),
            label: rect(*label),
            value: rect(*value),
        }));
    }

    pub fn write(&self, path: &Path) -> Result<()> {
        let json = serde_json::to_string_pretty(self).context("serialising the panel layout")?;
        std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))?;
        println!("wrote the panel layout {}", path.display());
        Ok(())
    }
}
