//! GPU pass times from timestamp queries: each pass writes a timestamp at its beginning and
//! end; the results are resolved at the end of the frame's encoder and read back through a
//! [`ReadbackRing`], so they arrive a frame or two later without stalling.
//!
//! Query slots: main pass 0–1, cull 2–3, build 4–5. A frame resolves only the contiguous
//! range its passes wrote (CPU-recorded modes have no cull or build pass), because resolving a
//! query that was never written is not defined.

use super::readback::ReadbackRing;

/// The passes that are timed, named as everywhere else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimedPass {
    Main = 0,
    Cull = 1,
    Build = 2,
}

impl TimedPass {
    pub fn name(self) -> &'static str {
        match self {
            TimedPass::Main => "main",
            TimedPass::Cull => "cull",
            TimedPass::Build => "build",
        }
    }
}

const QUERY_COUNT: u32 = 6;

/// Milliseconds of GPU time per pass for one frame; `None` for a pass the frame did not run.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuPassTimes {
    pub cull: Option<f64>,
    pub build: Option<f64>,
    pub main: Option<f64>,
}

impl GpuPassTimes {
    pub fn total(&self) -> f64 {
        self.cull.unwrap_or(0.0) + self.build.unwrap_or(0.0) + self.main.unwrap_or(0.0)
    }
}

pub struct GpuTimer {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    ring: ReadbackRing,
    /// Nanoseconds per tick.
    period: f64,
    /// Passes written in the frame being recorded.
    written: u32,
    /// Passes written by the frame whose results sit in each ring slot, by frame number.
    in_flight: Vec<(u64, u32)>,
}

impl GpuTimer {
    /// `None` when the device lacks `TIMESTAMP_QUERY`.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let size = QUERY_COUNT as u64 * wgpu::QUERY_SIZE as u64;
        Some(Self {
            queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("pass timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: QUERY_COUNT,
            }),
            resolve: crate::gpu::counted::buffer(
                device,
                &wgpu::BufferDescriptor {
                    label: Some("timestamp resolve"),
                    size,
                    usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                },
            ),
            ring: ReadbackRing::new(device, "timestamp readback", size),
            period: queue.get_timestamp_period() as f64,
            written: 0,
            in_flight: Vec::new(),
        })
    }

    pub fn compute_writes(&mut self, pass: TimedPass) -> wgpu::ComputePassTimestampWrites<'_> {
        self.written |= 1 << pass as u32;
        wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(pass as u32 * 2),
            end_of_pass_write_index: Some(pass as u32 * 2 + 1),
        }
    }

    pub fn render_writes(&mut self, pass: TimedPass) -> wgpu::RenderPassTimestampWrites<'_> {
        self.written |= 1 << pass as u32;
        wgpu::RenderPassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(pass as u32 * 2),
            end_of_pass_write_index: Some(pass as u32 * 2 + 1),
        }
    }

    /// Resolves what this frame wrote and queues its readback. Call last on the frame's encoder.
    pub fn resolve(&mut self, encoder: &mut wgpu::CommandEncoder, frame: u64) {
        let written = std::mem::take(&mut self.written);
        if written == 0 {
            return;
        }
        let passes = 32 - written.leading_zeros();
        let Some(staging) = self.ring.begin(frame) else {
            return;
        };
        encoder.resolve_query_set(&self.queries, 0..passes * 2, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, staging, 0, passes as u64 * 2 * wgpu::QUERY_SIZE as u64);
        self.in_flight.push((frame, written));
    }

    /// Call after the submit that contains [`GpuTimer::resolve`].
    pub fn submitted(&mut self) {
        self.ring.submitted();
    }

    /// Finished frames' pass times as (frame, times), oldest first.
    pub fn collect(&mut self, device: &wgpu::Device) -> Vec<(u64, GpuPassTimes)> {
        let mut results = Vec::new();
        for (frame, bytes) in self.ring.collect(device) {
            let Some(position) = self.in_flight.iter().position(|(f, _)| *f == frame) else {
                continue;
            };
            let (_, written) = self.in_flight.swap_remove(position);
            let ticks: &[u64] = bytemuck::cast_slice(&bytes);
            let time = |pass: TimedPass| {
                let i = pass as usize * 2;
                (written & (1 << pass as u32) != 0)
                    .then(|| ticks[i + 1].saturating_sub(ticks[i]) as f64 * self.period / 1e6)
            };
            results.push((
                frame,
                GpuPassTimes {
                    cull: time(TimedPass::Cull),
                    build: time(TimedPass::Build),
                    main: time(TimedPass::Main),
                },
            ));
        }
        results
    }
}
