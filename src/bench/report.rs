//! The benchmark's results: the JSON shape (documented in the README; the field names are
//! fixed), summary statistics and the text table.

use serde::{Deserialize, Serialize};

use super::GpuWait;
use crate::frame::DrawMode;
use crate::passes::main::indirect::IndirectCall;

/// Median and 95th percentile of a series, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stat {
    pub median: f64,
    pub p95: f64,
}

impl Stat {
    /// The table cell: "median / p95", three decimals.
    fn cell(&self) -> String {
        format!("{:.3} / {:.3}", self.median, self.p95)
    }

    /// Nearest-rank median and p95; zeros for an empty series.
    pub fn of(values: &[f64]) -> Self {
        if values.is_empty() {
            return Self::default();
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let rank = |q: f64| sorted[((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
        let median = if sorted.len() % 2 == 1 {
            sorted[sorted.len() / 2]
        } else {
            (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) / 2.0
        };
        Self { median, p95: rank(0.95) }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdapterJson {
    pub name: String,
    pub backend: String,
    pub device_type: String,
    pub driver: String,
}

/// Median GPU time of each pass, in ms, from timestamp queries. `cull`, `build` and `main` are
/// the first (or only) phase; the second phase's passes and the pyramid are present where the
/// row ran them. `total` is every pass of the frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GpuMs {
    pub cull: f64,
    pub build: f64,
    pub main: f64,
    pub total: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pyramid: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cull_late: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_late: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub main_late: Option<f64>,
    /// The compute rasteriser of the first (or only) phase and of the second, where it ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raster: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raster_late: Option<f64>,
}

impl GpuMs {
    /// The second phase and the pyramid together, 0 without them.
    pub fn occlusion_passes(&self) -> f64 {
        [self.pyramid, self.cull_late, self.build_late, self.main_late].iter().flatten().sum()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub mode: DrawMode,
    pub objects: u32,
    /// Visible objects in the last measured frame (the same frame number, hence the same
    /// animation time, for every mode).
    pub visible: u32,
    /// Measured frames (after warm-up).
    pub frames: u32,
    /// Draw-type commands recorded into the main pass per frame.
    pub draw_commands: u32,
    /// `set_bind_group` calls per group index per frame, all passes.
    pub bind_group_sets: Vec<u32>,
    pub cpu_record_ms: Stat,
    pub cpu_cull_ms: Stat,
    pub cpu_frame_ms: Stat,
    /// `null` where the adapter has no timestamp queries.
    pub gpu_ms: Option<GpuMs>,
    // Fields beyond the fixed shape.
    /// The `finish` part of `cpu_record_ms`.
    pub cpu_finish_ms: Stat,
    pub submit_ms: Stat,
    /// 95th percentile of the GPU total, where timed.
    pub gpu_total_p95_ms: Option<f64>,
    /// Whether objects moved during the row (bundle rows are static).
    pub animated: bool,
    /// The indirect draw call used, for GPU-driven modes.
    pub indirect_call: Option<IndirectCall>,
    /// Visible objects per measured frame.
    pub visible_per_frame: Vec<u32>,
    /// `cpu_record_ms` of every measured frame, in order.
    pub record_ms_per_frame: Vec<f64>,
    /// cpu rows: objects per frame whose culling or level could flip with float rounding
    /// (`passes::cull::cpu::boundary_count`); empty for other modes.
    pub boundary_per_frame: Vec<u32>,
    /// Levels of detail picked per object.
    pub lod: bool,
    /// The LOD error threshold, in pixels.
    pub lod_error_px: f32,
    /// The size threshold, in pixels (0: no size culling).
    pub min_pixels: f32,
    /// Whether the frames ran two-phase occlusion culling (GPU-culled modes only).
    pub occlusion: bool,
    /// Whether small objects went to the compute rasteriser (`passes::raster`).
    #[serde(default)]
    pub soft_raster: bool,
    /// Of the objects drawn, those the compute rasteriser drew, last measured frame.
    #[serde(default)]
    pub soft_drawn: u32,
    /// Triangles drawn in the last measured frame.
    pub triangles: u64,
    /// Objects in the frustum in the last measured frame.
    pub in_frustum: u32,
    /// Visible objects the second phase rejected as hidden, last measured frame.
    pub occluded: u32,
    /// Objects (instances) drawn by the first and second phase, last measured frame.
    pub drawn: [u32; 2],
    /// Objects drawn at each level of detail, last measured frame.
    pub levels: [u32; crate::tunables::LOD_LEVELS as usize],
    /// Objects replaced per frame (`--churn`: removed, added elsewhere, and as many more
    /// moved); 0 for a scene that does not change.
    #[serde(default)]
    pub churn: usize,
    /// Bytes the changes uploaded per frame, median.
    #[serde(default)]
    pub upload_bytes: u64,
    /// CPU time of applying the changes (the edits through the handles and their upload),
    /// apart from `cpu_record_ms`: `cpu_edit_ms` and `cpu_sync_ms` per frame, added.
    #[serde(default)]
    pub cpu_apply_ms: Stat,
    /// CPU time of the edits themselves: the churn choosing its objects and calling
    /// `remove_object`, `add_object` and `set_transform`.
    #[serde(default)]
    pub cpu_edit_ms: Stat,
    /// CPU time of mirroring the edits into the renderer (`LiveSync::apply`): placing each
    /// changed record and uploading them.
    #[serde(default)]
    pub cpu_sync_ms: Stat,
}

impl Row {
    /// Whether two rows drew with the same detail settings (so they should see the same
    /// visible objects).
    pub fn same_detail(&self, other: &Row) -> bool {
        (self.lod, self.lod_error_px, self.min_pixels) == (other.lod, other.lod_error_px, other.min_pixels)
    }

    /// Whether the row ran with LOD, size and occlusion culling all off.
    pub fn full_detail(&self) -> bool {
        !self.lod && self.min_pixels == 0.0 && !self.occlusion
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    pub adapter: AdapterJson,
    pub indirect_validation: bool,
    pub size: [u32; 2],
    pub scene: String,
    pub rows: Vec<Row>,
    // Fields beyond the fixed shape.
    pub timestamps: bool,
    pub multi_draw_indirect_count: bool,
    pub warmup_frames: u32,
    /// How the bench waited for each frame's GPU work.
    pub gpu_wait: GpuWait,
    pub notes: Vec<String>,
}

impl BenchReport {
    /// The first row of `mode` at `objects` (with `--compare-detail`, the full-detail one).
    pub fn row(&self, mode: DrawMode, objects: u32) -> Option<&Row> {
        self.rows.iter().find(|r| r.mode == mode && r.objects == objects)
    }

    /// The last row of `mode` at `objects`: the one with the requested detail settings.
    pub fn detail_row(&self, mode: DrawMode, objects: u32) -> Option<&Row> {
        self.rows.iter().rev().find(|r| r.mode == mode && r.objects == objects)
    }

    /// Compares the visible counts of every pair of rows that culled the same frames. Counts
    /// may differ by at most the number of objects touching a frustum plane to float precision
    /// in that frame (from the cpu row of the same object count, 0 without one). Returns
    /// (problems, frames that differed within that tolerance).
    pub fn visible_disagreements(&self) -> (Vec<String>, Vec<String>) {
        let (mut problems, mut tolerated) = (Vec::new(), Vec::new());
        for (i, row) in self.rows.iter().enumerate() {
            let comparable = |o: &&Row| o.objects == row.objects && o.animated == row.animated && o.same_detail(row);
            for other in self.rows[..i].iter().filter(comparable) {
                if row.mode == DrawMode::Bundle || other.mode == DrawMode::Bundle {
                    continue;
                }
                let boundary = self
                    .rows
                    .iter()
                    .find(|r| {
                        r.mode == DrawMode::Cpu
                            && r.objects == row.objects
                            && r.animated == row.animated
                            && r.same_detail(row)
                    })
                    .map(|r| r.boundary_per_frame.clone())
                    .unwrap_or_default();
                for (frame, (a, b)) in other.visible_per_frame.iter().zip(&row.visible_per_frame).enumerate() {
                    let allowed = boundary.get(frame).copied().unwrap_or(0);
                    let what = format!(
                        "{} objects, measured frame {frame}: {} saw {a}, {} saw {b} ({allowed} objects touch a plane to float precision)",
                        row.objects, other.mode, row.mode
                    );
                    if a.abs_diff(*b) > allowed {
                        problems.push(what);
                    } else if a != b {
                        tolerated.push(what);
                    }
                }
            }
        }
        (problems, tolerated)
    }

    /// The human-readable table.
    pub fn table(&self) -> String {
        let mut out = String::new();
        out += &format!(
            "adapter: {} ({}, {}, {})\nscene: {}   size: {}x{}   indirect validation: {}   timestamps: {}\n\n",
            self.adapter.name,
            self.adapter.backend,
            self.adapter.device_type,
            self.adapter.driver,
            // The scene's name comes from its file: shown escaped (the JSON keeps it as it is).
            crate::text::display_name(&self.scene),
            self.size[0],
            self.size[1],
            if self.indirect_validation { "on" } else { "off" },
            if self.timestamps { "yes" } else { "no (GPU times not available on this adapter)" },
        );
        out += &format!(
            "{:<15} {:>9} {:>10} {:>9} {:>15} {:>8} {:>9} {:>11} {:>7} {:>17} {:>17} {:>17} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>10}\n",
            "mode",
            "objects",
            "lod/occ/sr",
            "visible",
            "drawn (1 + 2)",
            "soft",
            "occluded",
            "triangles",
            "draws",
            "record ms",
            "cpu cull ms",
            "cpu frame ms",
            "gpu cull",
            "build",
            "raster",
            "main",
            "occl",
            "gpu total",
            "bind sets"
        );
        out += &format!(
            "{:<15} {:>9} {:>10} {:>9} {:>15} {:>8} {:>9} {:>11} {:>7} {:>17} {:>17} {:>17}\n",
            "", "", "", "", "", "", "", "", "", "med / p95", "med / p95", "med / p95"
        );
        for r in &self.rows {
            let gpu_culled = r.mode.gpu_culled();
            let gpu =
                |f: &dyn Fn(&GpuMs) -> f64| r.gpu_ms.as_ref().map_or("n/a".to_string(), |g| format!("{:.3}", f(g)));
            let gpu_pass = |f: &dyn Fn(&GpuMs) -> f64| if gpu_culled { gpu(f) } else { "-".to_string() };
            let on = |b: bool| if b { "on" } else { "off" };
            out += &format!(
                "{:<15} {:>9} {:>10} {:>9} {:>15} {:>8} {:>9} {:>11} {:>7} {:>17} {:>17} {:>17} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>10}\n",
                r.mode.name(),
                r.objects,
                format!("{}/{}/{}", on(r.lod), on(r.occlusion), on(r.soft_raster)),
                r.visible,
                format!("{} + {}", r.drawn[0], r.drawn[1]),
                r.soft_drawn,
                r.occluded,
                r.triangles,
                r.draw_commands,
                r.cpu_record_ms.cell(),
                r.cpu_cull_ms.cell(),
                r.cpu_frame_ms.cell(),
                gpu_pass(&|g| g.cull),
                gpu_pass(&|g| g.build),
                if r.soft_raster { gpu(&|g| g.raster.unwrap_or(0.0) + g.raster_late.unwrap_or(0.0)) } else { "-".into() },
                gpu(&|g| g.main),
                if r.occlusion { gpu(&|g| g.occlusion_passes()) } else { "-".to_string() },
                gpu(&|g| g.total),
                format!("{:?}", r.bind_group_sets),
            );
        }
        if self.rows.iter().any(|r| r.churn > 0) {
            out += &format!(
                "\n{:<15} {:>9} {:>8} {:>14} {:>17} {:>17} {:>17} {:>17}\n",
                "churn", "objects", "changes", "upload B", "apply ms", "(edit ms", "+ sync ms)", "record ms"
            );
            for r in self.rows.iter().filter(|r| r.churn > 0) {
                out += &format!(
                    "{:<15} {:>9} {:>8} {:>14} {:>17} {:>17} {:>17} {:>17}\n",
                    r.mode.name(),
                    r.objects,
                    r.churn,
                    r.upload_bytes,
                    r.cpu_apply_ms.cell(),
                    r.cpu_edit_ms.cell(),
                    r.cpu_sync_ms.cell(),
                    r.cpu_record_ms.cell()
                );
            }
        }
        out += "\n";
        out +=
            "lod/occ/sr: levels of detail / occlusion culling / compute rasteriser for small objects; drawn: objects \
                drawn by phase 1 + phase 2, of which soft: by the compute rasteriser; raster: its GPU ms (both phases; \
                its resolve is part of main); occl: GPU ms of the pyramid and the second phase\n";
        out += &self.summary();
        for note in &self.notes {
            out += &format!("note: {note}\n");
        }
        out
    }

    /// With `--compare-detail`: per count and mode, the GPU time and what was drawn at full
    /// detail against with LOD, size and occlusion culling, from rows of this run.
    pub fn detail_summary(&self) -> String {
        let mut out = String::new();
        for full in self.rows.iter().filter(|r| r.full_detail()) {
            let Some(culled) = self.rows.iter().find(|r| {
                r.mode == full.mode && r.objects == full.objects && r.animated == full.animated && !r.full_detail()
            }) else {
                continue;
            };
            let share = |part: u64, whole: u64| 100.0 * part as f64 / whole.max(1) as f64;
            let drawn = |r: &Row| (r.drawn[0] + r.drawn[1]) as u64;
            out += &format!(
                "{:>9} objects, {}: triangles {} -> {} ({:.1}% removed), instances drawn {} -> {} ({:.1}% removed: \
                 {:.1}% too small, {:.1}% occluded of {} in the frustum)",
                full.objects,
                full.mode,
                full.triangles,
                culled.triangles,
                100.0 - share(culled.triangles, full.triangles),
                drawn(full),
                drawn(culled),
                100.0 - share(drawn(culled), drawn(full)),
                share((culled.in_frustum - culled.visible) as u64, culled.in_frustum as u64),
                share(culled.occluded as u64, culled.in_frustum as u64),
                culled.in_frustum,
            );
            if let (Some(a), Some(b)) = (full.gpu_ms, culled.gpu_ms) {
                let ratio = a.total / b.total.max(1e-9);
                let (factor, word) = if ratio >= 1.0 { (ratio, "less") } else { (1.0 / ratio.max(1e-9), "more") };
                out += &format!(
                    "; GPU total {:.3} ms at full detail vs {:.3} ms with lod {} / occlusion {}: {factor:.1}x {word}",
                    a.total,
                    b.total,
                    if culled.lod { "on" } else { "off" },
                    if culled.occlusion { "on" } else { "off" },
                );
            }
            out += "\n";
        }
        out
    }

    /// Ratios that answer the benchmark's questions, computed from rows of this run.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let cpu_work = |r: &Row| r.cpu_record_ms.median + r.cpu_cull_ms.median;
        let mut counts: Vec<u32> = self.rows.iter().map(|r| r.objects).collect();
        counts.sort_unstable();
        counts.dedup();
        for &n in &counts {
            if let (Some(gpu), Some(cpu)) = (self.row(DrawMode::Gpu, n), self.row(DrawMode::Cpu, n)) {
                out += &format!(
                    "{n:>9} objects: CPU work per frame (record + cull) gpu {:.3} ms vs cpu {:.3} ms: {:.1}x less",
                    cpu_work(gpu),
                    cpu_work(cpu),
                    cpu_work(cpu) / cpu_work(gpu).max(1e-9)
                );
                if let (Some(g), Some(c)) = (gpu.gpu_ms, cpu.gpu_ms) {
                    out += &format!("; GPU time gpu {:.3} ms vs cpu {:.3} ms", g.total, c.total);
                }
                out += "\n";
            }
        }
        if let (Some(&lo), Some(&hi)) = (counts.first(), counts.last()) {
            if let (Some(a), Some(b)) = (self.row(DrawMode::Gpu, lo), self.row(DrawMode::Gpu, hi)) {
                if lo != hi {
                    out += &format!(
                        "gpu record time {hi} vs {lo} objects: {:.3} ms vs {:.3} ms ({:.2}x)\n",
                        b.cpu_record_ms.median,
                        a.cpu_record_ms.median,
                        b.cpu_record_ms.median / a.cpu_record_ms.median.max(1e-9)
                    );
                }
            }
        }
        out += &self.detail_summary();
        let (problems, tolerated) = self.visible_disagreements();
        if problems.is_empty() && tolerated.is_empty() {
            out += "visible counts agree between the GPU-culled and CPU-culled modes on every frame\n";
        } else if problems.is_empty() {
            out += "visible counts agree between the GPU-culled and CPU-culled modes on every frame, \
                    up to objects touching a frustum plane to float precision:\n";
        }
        for t in tolerated {
            out += &format!("  {t}\n");
        }
        for p in problems {
            out += &format!("WARNING: visible counts disagree: {p}\n");
        }
        out
    }
}
