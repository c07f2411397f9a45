//! Soak run: many GPU-driven frames of an animated scene, sampling host and GPU memory, to show
//! that nothing grows per frame once warmed up and no buffer is re-created per frame.
//!
//! With churn, a live copy of the scene has objects removed, added and moved every frame
//! (`live::churn`): after warm-up, once the batches' capacities have settled, no buffer is
//! made either.
//!
//! Host memory is the process's resident set (`/proc/self/statm`, Linux); GPU memory and live
//! object counts come from wgpu's internal counters (`counters` feature): bytes of buffer and
//! texture memory, live buffers and device memory allocations.

use std::time::Instant;

use serde::Serialize;

use crate::frame::{DrawMode, FrameInput, Renderer};
use crate::gpu::target::OffscreenTarget;
use crate::gpu::GpuContext;
use crate::live::churn::ChurnScene;
use crate::live::LiveSync;
use crate::scene::Scene;

/// One memory sample, with the frames' wall-clock times since the previous one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
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
    /// Wall-clock time of the frames since the previous sample (this one's included), from the
    /// frame's start (before `--churn`'s edits and the recording) until the CPU saw the GPU
    /// done: median and p95, ms.
    pub wall_ms: super::report::Stat,
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

/// Why a soak would pass having measured nothing: growth is the change between memory samples
/// taken after warm-up, so a run needs at least two of them.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SoakPlanError {
    #[error("a soak of 0 frames measures nothing: give --frames more than --warmup ({warmup})")]
    NoFrames { warmup: u64 },
    #[error(
        "--warmup {warmup} is not below --frames {frames}: every frame would be warm-up and nothing \
         measured; give --frames more than --warmup"
    )]
    AllWarmUp { frames: u64, warmup: u64 },
    #[error("--every 0: memory must be sampled every 1 frame or more")]
    NoSampling,
    #[error(
        "--frames {frames} with --warmup {warmup} and --every {every} samples memory only once after \
         warm-up, and growth needs two samples; render more frames after warm-up or sample more often"
    )]
    OneSample { frames: u64, warmup: u64, every: u64 },
}

/// `multidraw soak`'s frames, warm-up frames and sampling interval by default: on a CPU
/// adapter such as lavapipe, whose frames of the default scene take a third of a second, a run
/// of minutes rather than an hour, still long enough after warm-up (500 frames) for a leak of
/// a few kilobytes a frame to stand out of the allocator's noise.
pub fn default_plan(device_type: wgpu::DeviceType) -> (u64, u64, u64) {
    if device_type == wgpu::DeviceType::Cpu {
        (600, 100, 50)
    } else {
        (10_000, 500, 250)
    }
}

/// Checks that a soak of `frames` frames, the first `warmup` of them warm-up, sampled every
/// `every` frames (and at the last), takes at least two samples after warm-up.
pub fn check_plan(frames: u64, warmup: u64, every: u64) -> Result<(), SoakPlanError> {
    if frames == 0 {
        return Err(SoakPlanError::NoFrames { warmup });
    }
    if warmup >= frames {
        return Err(SoakPlanError::AllWarmUp { frames, warmup });
    }
    if every == 0 {
        return Err(SoakPlanError::NoSampling);
    }
    // Samples after warm-up: the last frame (at or after warm-up, checked above), and every
    // multiple of `every` from warm-up on before it; the first such multiple must come first.
    let first_multiple = warmup.div_ceil(every).checked_mul(every);
    if first_multiple.is_none_or(|m| m >= frames - 1) {
        return Err(SoakPlanError::OneSample { frames, warmup, every });
    }
    Ok(())
}

fn host_rss() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|pages| pages.parse::<u64>().ok()))
        .map_or(0, |pages| pages * 4096)
}

/// Memory now, after `frame`; `wall_ms` is left for the caller.
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
        wall_ms: Default::default(),
    }
}

/// Renders `frames` GPU-driven frames of `scene` into a `width`×`height` target, sampling
/// memory every `every` frames; growth is measured after the first `warmup` frames. A plan
/// that would measure nothing ([`check_plan`]) is refused before anything is created.
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
    shadows: u32,
    churn: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<SoakReport, super::BenchError> {
    check_plan(frames, warmup, every)?;
    super::check_churn(churn, scene.objects.len() as u64)?;
    // With churn, the scene is a live copy changed every frame (see `live::churn`).
    let mut churning = match churn {
        0 => None,
        _ => Some((ChurnScene::from_scene(scene, 7)?, LiveSync::new())),
    };
    let initial = churning.as_ref().map(|(c, _)| c.live.to_scene());
    let mut renderer = Renderer::new(ctx, initial.as_ref().unwrap_or(scene), crate::gpu::target::COLOR_FORMAT)?;
    let target = OffscreenTarget::new(&ctx.device, width, height);
    let start = Instant::now();
    let mut samples = Vec::new();
    let mut wall_ms = Vec::new();
    // Only with puffin on (`--puffin-http`): each frame a `frame` scope and a GPU queue lane.
    let mut lane = puffin::are_scopes_on().then(|| crate::profiling::GpuLane::new(ctx));
    if let Some(note) = lane.as_ref().and_then(|l| l.note()) {
        eprintln!("note: {note}");
    }
    for frame in 0..frames {
        let input = FrameInput { time: frame as f32 / 60.0, detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) }
            .with_shadows(shadows);
        let frame_start = Instant::now();
        {
            let tag = renderer.next_tag(DrawMode::Gpu);
            puffin::profile_scope!(crate::profiling::FRAME_SCOPE, tag.to_string());
            let frame_start_ns = puffin::now_ns();
            if let Some(lane) = lane.as_mut() {
                lane.recalibrate_if_stale(ctx);
                lane.submitted(tag);
            }
            if let Some((churn_scene, sync)) = churning.as_mut() {
                churn_scene.step(churn)?;
                sync.apply(ctx, &mut renderer, &mut churn_scene.live)?;
            }
            renderer.render(ctx, &target.frame_target(), &input);
            {
                puffin::profile_scope!("wait for gpu");
                ctx.wait_idle();
            }
            wall_ms.push(frame_start.elapsed().as_secs_f64() * 1e3);
            for readback in renderer.collect(&ctx.device) {
                if let (Some(lane), Some(times)) = (lane.as_mut(), readback.gpu) {
                    lane.report(readback.frame, &times, frame_start_ns);
                }
            }
        }
        if lane.is_some() {
            puffin::GlobalProfiler::lock().new_frame();
        }
        if let Some(message) = ctx.take_errors().into_iter().next() {
            return Err(super::BenchError::Gpu {
                mode: DrawMode::Gpu,
                objects: renderer.buffers.object_count,
                message,
            });
        }
        if frame % every == 0 || frame + 1 == frames {
            samples.push(MemorySample { wall_ms: super::report::Stat::of(&wall_ms), ..sample(ctx, frame) });
            wall_ms.clear();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_that_measures_nothing_is_refused() {
        assert_eq!(check_plan(0, 0, 1), Err(SoakPlanError::NoFrames { warmup: 0 }));
        assert_eq!(check_plan(100, 100, 10), Err(SoakPlanError::AllWarmUp { frames: 100, warmup: 100 }));
        assert_eq!(check_plan(100, 500, 10), Err(SoakPlanError::AllWarmUp { frames: 100, warmup: 500 }));
        assert_eq!(check_plan(100, 10, 0), Err(SoakPlanError::NoSampling));
        // One frame after warm-up, or samples too sparse to land two after it.
        assert!(matches!(check_plan(101, 100, 1), Err(SoakPlanError::OneSample { .. })));
        assert!(matches!(check_plan(200, 100, 250), Err(SoakPlanError::OneSample { .. })));
        assert_eq!(check_plan(200, 100, 150), Ok(()), "frames 150 and 199");
        assert!(matches!(check_plan(u64::MAX, 1, u64::MAX), Err(SoakPlanError::OneSample { .. })));
        // Two samples after warm-up: frame 100 and the last.
        assert_eq!(check_plan(102, 100, 1), Ok(()));
        assert_eq!(check_plan(10_000, 500, 250), Ok(()));
        assert_eq!(check_plan(1_500, 150, 75), Ok(()));
        assert_eq!(check_plan(2, 0, 1), Ok(()));
    }
}
