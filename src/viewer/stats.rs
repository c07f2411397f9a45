//! The live numbers of the side panel, from each frame's stats and the GPU readbacks that
//! arrive a frame or two later.

use std::collections::VecDeque;

use crate::frame::{DrawMode, FrameReadback, FrameStats};
use crate::gpu::timer::GpuPassTimes;

/// Frame times kept for the panel's plot.
pub(crate) const FRAME_TIMES_KEPT: usize = 240;

/// The panel's counts, from whichever side culled.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CpuOrGpuCounts {
    pub in_frustum: u32,
    pub too_small: u32,
    pub occluded: u32,
    pub drawn: [u32; 2],
    pub triangles: u64,
    pub levels: [u32; crate::tunables::LOD_LEVELS as usize],
    /// Of the drawn objects, those the compute rasteriser drew (0 in the CPU modes).
    pub soft: u32,
    /// Of the drawn objects, the occluders drawn first, nearest first (0 in the CPU modes).
    pub occluders: u32,
}

#[derive(Default)]
pub(crate) struct LiveStats {
    pub visible: Option<u32>,
    pub draw_commands: u32,
    pub bind_group_sets: [u32; 3],
    pub record_ms: f64,
    pub cpu_cull_ms: f64,
    pub gpu: Option<GpuPassTimes>,
    /// The GPU's counters of the newest frame read back (GPU-culled modes), or the CPU's.
    pub counters: Option<CpuOrGpuCounts>,
    /// The last [`FRAME_TIMES_KEPT`] CPU frame times (the `frame` scope) in ms, oldest first.
    pub frame_ms: VecDeque<f32>,
    /// The last [`FRAME_TIMES_KEPT`] GPU frame times (every pass of a frame) in ms, oldest
    /// first, as they are read back.
    pub gpu_frame_ms: VecDeque<f32>,
    /// What the last frame ran: two culling phases, the compute rasteriser, deferred shading,
    /// the compute rasteriser in the shadow cascades (the adaptive frame's choice where the
    /// panel leaves them to auto).
    pub two_phase: bool,
    pub soft: bool,
    pub deferred: bool,
    pub shadow_soft: bool,
}

impl LiveStats {
    /// Takes the CPU-side numbers of a frame just recorded.
    pub fn record_frame(&mut self, stats: &FrameStats) {
        self.record_ms = stats.record_ms;
        self.cpu_cull_ms = stats.cpu_cull_ms;
        self.draw_commands = stats.commands.draw_commands();
        self.two_phase = stats.two_phase;
        self.deferred = stats.deferred;
        self.soft = stats.soft;
        self.shadow_soft = stats.shadow_soft;
        self.bind_group_sets = stats.commands.bind_group_sets();
        if let Some(visible) = stats.cpu_visible {
            self.visible = Some(visible);
        }
        if let Some(c) = stats.cpu_counts {
            self.counters = Some(CpuOrGpuCounts {
                in_frustum: c.in_frustum,
                too_small: c.too_small,
                occluded: 0,
                drawn: [c.visible, 0],
                triangles: c.triangles,
                levels: c.levels,
                soft: 0,
                occluders: 0,
            });
        }
    }

    /// Takes a GPU readback; its visible count only while `mode` culls on the GPU (a stale
    /// one from before a switch to cpu would overwrite the CPU's count).
    pub fn record_readback(&mut self, readback: &FrameReadback, mode: DrawMode) {
        if let (Some(visible), true) = (readback.visible, mode.gpu_culled()) {
            self.visible = Some(visible);
        }
        if let (Some(c), true) = (readback.counters, mode.gpu_culled()) {
            self.counters = Some(CpuOrGpuCounts {
                in_frustum: c.in_frustum,
                too_small: c.too_small,
                occluded: c.occluded,
                drawn: c.drawn,
                triangles: c.triangles,
                levels: c.levels,
                soft: c.soft,
                occluders: c.occluders,
            });
        }
        if let Some(times) = readback.gpu {
            self.gpu = Some(times);
            push_kept(&mut self.gpu_frame_ms, times.total() as f32);
        }
    }

    pub fn push_frame_time(&mut self, ms: f32) {
        push_kept(&mut self.frame_ms, ms);
    }
}

fn push_kept(times: &mut VecDeque<f32>, ms: f32) {
    times.push_back(ms);
    if times.len() > FRAME_TIMES_KEPT {
        times.pop_front();
    }
}
