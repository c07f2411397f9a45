//! Soak run: many GPU-driven frames of an animated scene, sampling host and GPU memory, to show
//! that nothing grows per frame once warmed up and no buffer is re-created per frame.
//!
//! Host memory is the process's resident set (`/proc/self/statm`, Linux); GPU memory and live
//! object counts come from wgpu's internal counters (`counters` feature): bytes of buffer and
//! texture memory, live buffers and device memory allocations.

use std::time::Instant;

use serde::Serialize;

use crate::frame::{DrawMode, FrameInput, Renderer};
use crate::gpu::target::OffscreenTarget;
use crate::gpu::GpuContext;
use crate::scene::Scene;

/// One memory sample.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemorySample {
    pub frame: u64,
    /// Resident host memory in bytes (0 where unknown).
    pub host_rss: u64,
    pub gpu_buffer_bytes: i64,
    pub gpu_texture_bytes: i64,
    pub live_buffers: i64,
    pub memory_allocations: i64,
    /// Buffers the engine created so far (`gpu::counted`).
    pub engine_buffers_created: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct SoakReport {
    pub frames: u64,
    pub warmup_frames: u64,
    pub objects: u32,
    pub seconds: f64,
    pub samples: Vec<MemorySample>,
    /// Host memory trend after warm-up: the peak of the second half of the samples minus the
    /// peak of the first half (0 when not growing). Resident memory moves up and down by
    /// megabytes with the driver's and allocator's pools (seen on lavapipe), so the trend, not
    /// the range, tells a leak.
    pub host_rss_growth: u64,
    /// Largest minus smallest resident size after warm-up, for reference.
    pub host_rss_range: u64,
    /// GPU quantities: largest minus smallest value after warm-up; any change is growth.
    pub gpu_buffer_growth: i64,
    pub gpu_texture_growth: i64,
    pub live_buffers_growth: i64,
    pub memory_allocations_growth: i64,
    /// Buffers the engine created after warm-up (0: nothing is re-created per frame).
    pub buffers_created_after_warmup: u64,
}

impl SoakReport {
    /// One line with every growth figure, as the CLI and the soak test print it.
    pub fn growth_line(&self) -> String {
        format!(
            "growth after frame {}: host RSS {} B (range {} B), GPU buffer memory {} B, GPU texture memory {} B, \
             live buffers {}, allocations {}, buffers created {}",
            self.warmup_frames,
            self.host_rss_growth,
            self.host_rss_range,
            self.gpu_buffer_growth,
            self.gpu_texture_growth,
            self.live_buffers_growth,
            self.memory_allocations_growth,
            self.buffers_created_after_warmup
        )
    }

    /// Whether every quantity stayed flat after warm-up, host memory within `host_slack` bytes
    /// (allocator noise).
    pub fn flat(&self, host_slack: u64) -> bool {
        self.host_rss_growth <= host_slack
            && self.gpu_buffer_growth == 0
            && self.gpu_texture_growth == 0
            && self.live_buffers_growth == 0
            && self.memory_allocations_growth == 0
            && self.buffers_created_after_warmup == 0
    }
}

fn host_rss() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|pages| pages.parse::<u64>().ok()))
        .map_or(0, |pages| pages * 4096)
}

pub fn sample(ctx: &GpuContext, frame: u64) -> MemorySample {
    let hal = ctx.device.get_internal_counters().hal;
    MemorySample {
        frame,
        host_rss: host_rss(),
        gpu_buffer_bytes: hal.buffer_memory.read() as i64,
        gpu_texture_bytes: hal.texture_memory.read() as i64,
        live_buffers: hal.buffers.read() as i64,
        memory_allocations: hal.memory_allocations.read() as i64,
        engine_buffers_created: crate::gpu::counted::buffers_created(),
    }
}

/// Renders `frames` GPU-driven frames of `scene` into a `width`×`height` target, sampling
/// memory every `every` frames; growth is measured after the first `warmup` frames.
#[allow(clippy::too_many_arguments)]
pub fn run(
    ctx: &GpuContext,
    scene: &Scene,
    frames: u64,
    warmup: u64,
    every: u64,
    width: u32,
    height: u32,
    detail: crate::frame::Detail,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<SoakReport, super::BenchError> {
    let mut renderer = Renderer::new(ctx, scene, crate::gpu::target::COLOR_FORMAT)?;
    let target = OffscreenTarget::new(&ctx.device, width, height);
    let start = Instant::now();
    let mut samples = Vec::new();
    for frame in 0..frames {
        let input = FrameInput { time: frame as f32 / 60.0, detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
        renderer.render(ctx, &target.frame_target(), &input);
        ctx.wait_idle();
        renderer.collect(&ctx.device);
        if let Some(message) = ctx.take_errors().into_iter().next() {
            return Err(super::BenchError::Gpu {
                mode: DrawMode::Gpu,
                objects: renderer.buffers.object_count,
                message,
            });
        }
        if frame % every == 0 || frame + 1 == frames {
            samples.push(sample(ctx, frame));
            progress(frame + 1, frames);
        }
    }
    let after: Vec<&MemorySample> = samples.iter().filter(|s| s.frame >= warmup).collect();
    let rss: Vec<u64> = after.iter().map(|s| s.host_rss).collect();
    let (first, second) = rss.split_at(rss.len() / 2);
    let peak = |values: &[u64]| values.iter().copied().max().unwrap_or(0);
    let host_rss_growth = if first.is_empty() { 0 } else { peak(second).saturating_sub(peak(first)) };
    let host_rss_range = range(&after, |s| s.host_rss);
    Ok(SoakReport {
        frames,
        warmup_frames: warmup,
        objects: renderer.buffers.object_count,
        seconds: start.elapsed().as_secs_f64(),
        host_rss_growth,
        host_rss_range,
        gpu_buffer_growth: range(&after, |s| s.gpu_buffer_bytes),
        gpu_texture_growth: range(&after, |s| s.gpu_texture_bytes),
        live_buffers_growth: range(&after, |s| s.live_buffers),
        memory_allocations_growth: range(&after, |s| s.memory_allocations),
        buffers_created_after_warmup: range(&after, |s| s.engine_buffers_created),
        samples,
    })
}

/// Largest minus smallest value of one quantity over the samples (0 for none).
fn range<T: Ord + Default + std::ops::Sub<Output = T>>(samples: &[&MemorySample], value: fn(&MemorySample) -> T) -> T {
    let values = || samples.iter().map(|s| value(s));
    match (values().max(), values().min()) {
        (Some(max), Some(min)) => max - min,
        _ => T::default(),
    }
}
