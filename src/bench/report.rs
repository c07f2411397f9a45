//! The benchmark's results: the JSON shape (documented in the README; the field names are
//! fixed), summary statistics, and which rows' timestamps miss work. The text table and the
//! ratios are `bench::table`.

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
    pub(super) fn cell(&self) -> String {
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
/// row ran them. `total` is every pass of the frame. `passes` has every pass the frame
/// recorded by its name (wgpu label = puffin scope = timestamp), from the frame's pass list:
/// a new pass appears there without a field of its own.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GpuMs {
    #[serde(default)]
    pub passes: std::collections::BTreeMap<String, f64>,
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
    /// Every shadow cascade's passes together (their cull, build and depth passes, and with
    /// occlusion culling their pyramids and second phases; every view's), 0 without shadows.
    pub fn shadow_passes(&self) -> f64 {
        use crate::passes::shadow;
        self.passes.iter().filter(|(name, _)| shadow::is_cascade_pass(name)).fold(0.0, |sum, (_, ms)| sum + ms)
    }

    /// The blend sort and the blended pass together, 0 without blended objects (both are in
    /// `passes` by name too).
    pub fn blend_passes(&self) -> f64 {
        use crate::passes::blend;
        [blend::SORT_NAME, blend::NAME].iter().filter_map(|name| self.passes.get(*name)).fold(0.0, |a, b| a + b)
    }

    /// Deferred shading's passes together (`passes::deferred`: the shading and the
    /// composite), 0 in frames that shade forward.
    pub fn deferred_passes(&self) -> f64 {
        use crate::passes::deferred;
        [deferred::NAME, deferred::COMPOSITE_NAME]
            .iter()
            .filter_map(|name| self.passes.get(*name))
            .fold(0.0, |a, b| a + b)
    }

    /// The second phase and the pyramid together, with the mark dispatch that sets the compute
    /// rasteriser's objects' bits for the next frame's first phase; 0 without them.
    pub fn occlusion_passes(&self) -> f64 {
        let mark = self.passes.get(crate::passes::raster::MARK_NAME).copied();
        // From +0.0: an empty float sum is -0.0, which prints as "-0.000".
        [self.pyramid, self.cull_late, self.build_late, self.main_late, mark].iter().flatten().fold(0.0, |a, b| a + b)
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
    /// Whether most measured frames ran two-phase occlusion culling (GPU-culled modes only).
    pub occlusion: bool,
    /// Whether small objects went to the compute rasteriser (`passes::raster`) in most
    /// measured frames.
    #[serde(default)]
    pub soft_raster: bool,
    /// `--occlusion auto`: the renderer chose, frame by frame (`frame::adapt`).
    #[serde(default)]
    pub occlusion_auto: bool,
    /// `--soft-raster auto`.
    #[serde(default)]
    pub soft_auto: bool,
    /// Measured frames that ran two phases.
    #[serde(default)]
    pub two_phase_frames: u32,
    /// Measured frames in which the compute rasteriser ran.
    #[serde(default)]
    pub soft_frames: u32,
    /// Whether most measured frames shaded their opaque pixels after the main pass
    /// (`passes::deferred`).
    #[serde(default)]
    pub deferred: bool,
    /// `--deferred auto`.
    #[serde(default)]
    pub deferred_auto: bool,
    /// Measured frames that deferred their shading.
    #[serde(default)]
    pub deferred_frames: u32,
    /// Of the objects drawn, those the compute rasteriser drew, last measured frame.
    #[serde(default)]
    pub soft_drawn: u32,
    /// Of the objects drawn, the occluders drawn first, nearest first, last measured frame.
    #[serde(default)]
    pub occluders: u32,
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
    /// Views side by side in each frame (`--views`); the counts and visible objects are the
    /// first view's, the GPU pass times every view's.
    #[serde(default = "one_view")]
    pub views: u32,
    /// The sun's shadow cascades per view (0: no shadows).
    #[serde(default)]
    pub shadow_cascades: u32,
    /// Casters each cascade of the first view drew, last measured frame.
    #[serde(default)]
    pub casters: Vec<u32>,
    /// Measured frames whose cascades culled in two phases (`--shadow-occlusion`).
    #[serde(default)]
    pub shadow_two_phase_frames: u32,
    /// `--shadow-occlusion auto`: the renderer chose, frame by frame.
    #[serde(default)]
    pub shadow_occlusion_auto: bool,
    /// Measured frames whose cascades drew their small casters with the compute rasteriser.
    #[serde(default)]
    pub shadow_soft_frames: u32,
    /// `--soft-raster auto` in a frame with shadows: the renderer chose that too.
    #[serde(default)]
    pub shadow_soft_auto: bool,
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
    /// Wall-clock time of each frame: from before its first command is recorded until the CPU
    /// sees its GPU work done, through the row's wait (`BenchReport::gpu_wait`).
    #[serde(default)]
    pub wall_ms: Stat,
    /// The part of `wall_ms` after submission: the time the CPU waited for the GPU, which the
    /// timestamps should account for.
    #[serde(default)]
    pub gpu_wall_ms: Stat,
    /// The median timestamp sum over the median `gpu_wall_ms` (`None` without timestamps).
    #[serde(default)]
    pub timestamp_coverage: Option<f64>,
    /// The timestamps miss work ([`timestamps_short`]): judge this row by `wall_ms`.
    #[serde(default)]
    pub timestamps_short: bool,
}

/// Rows whose timestamps cover less than this share of the time the CPU waited for the GPU
/// are flagged: the timestamps miss work (on lavapipe without the opening flush, a compute
/// pass's first dispatch: see docs/BENCHMARKS.md, "Timestamps and the wall clock").
pub const TIMESTAMP_COVERAGE_MIN: f64 = 0.8;
/// ...unless less than this is missing: a fence's latency and the queue's own copies are not
/// missing work, and at a fraction of a millisecond a frame they alone fall under the share.
pub const TIMESTAMP_GAP_MIN_MS: f64 = 1.0;

/// Whether timestamps summing to `timestamp_ms` miss work the GPU did in the `gpu_wall_ms` the
/// CPU waited for it.
pub fn timestamps_short(timestamp_ms: f64, gpu_wall_ms: f64) -> bool {
    timestamp_ms < TIMESTAMP_COVERAGE_MIN * gpu_wall_ms && gpu_wall_ms - timestamp_ms > TIMESTAMP_GAP_MIN_MS
}

impl Row {
    /// Whether two rows drew with the same detail settings (so they should see the same
    /// visible objects).
    pub fn same_detail(&self, other: &Row) -> bool {
        (self.lod, self.lod_error_px, self.min_pixels) == (other.lod, other.lod_error_px, other.min_pixels)
    }

    /// "defaults" for a row drawn with the default detail settings (as far as the adapter ran
    /// them), else the settings: "lod on / occlusion off / sr on".
    pub fn detail_name(&self) -> String {
        let defaults = crate::frame::Detail::default();
        if (self.lod, self.lod_error_px, self.min_pixels) == (defaults.lod, defaults.lod_error_px, defaults.min_pixels)
            && self.occlusion == (defaults.occlusion && self.mode.gpu_culled())
        {
            return "defaults".into();
        }
        let on = |b: bool| if b { "on" } else { "off" };
        format!("lod {} / occlusion {} / sr {}", on(self.lod), on(self.occlusion), on(self.soft_raster))
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
    /// may differ by at most the number of objects within float rounding of a frustum plane
    /// or of a size or level-of-detail threshold in that frame (from the cpu row of the same
    /// object count, 0 without one). Returns (problems, frames that differed within that
    /// tolerance).
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
                        "{} objects, measured frame {frame}: {} saw {a}, {} saw {b} ({allowed} objects within float rounding of a culling or level threshold)",
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
}

/// The default of [`Row::views`] in reports written before views existed.
fn one_view() -> u32 {
    1
}
