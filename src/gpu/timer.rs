//! GPU pass times from timestamp queries: each pass writes a timestamp at its beginning and
//! end; the results are resolved at the end of the frame's encoder and read back through a
//! [`ReadbackRing`], so they arrive a frame or two later without stalling.
//!
//! Passes are timed by name, the name that is also their wgpu label and puffin scope: the
//! k-th pass a frame opens gets query slots 2k and 2k + 1, so a frame resolves exactly the
//! contiguous range its passes wrote (resolving a query that was never written is not
//! defined), and adding a pass needs no change here. Work recorded outside any pass (a copy, a
//! buffer clear) that starts a pass is timed with it ([`GpuTimer::begin_span`]): an empty
//! compute pass writes slot 2k before that work and the pass itself only 2k + 1.
//!
//! On lavapipe a compute pass's opening timestamp is read late: the driver files it in
//! llvmpipe's next scene of rasteriser commands, whose clock is read when a rasteriser thread
//! plays that scene back, while a dispatch runs at once on the queue's thread (docs/BENCHMARKS.md
//! § "Timestamps and the wall clock"), so the pass's first dispatch fell outside its interval.
//! With [`GpuTimer::with_opening_flush`] every compute pass opens as a span, and a second
//! empty pass right after it writes a timestamp of its own into a set that is never read:
//! lavapipe submits the scene that holds the opening timestamp before writing another, so the
//! opening one is read before the pass's first dispatch.

use super::readback::ReadbackRing;
use crate::tunables::MAX_PASSES;

const QUERY_COUNT: u32 = 2 * MAX_PASSES as u32;

/// Whether a timer for an adapter of `device_type` flushes its compute passes' opening
/// timestamps ([`GpuTimer::for_adapter`]): on CPU adapters, unless the environment sets
/// `MULTIDRAW_TIMESTAMP_FLUSH=off` (to see what lavapipe's timestamps miss without it).
fn flushes_openings_on(device_type: wgpu::DeviceType) -> bool {
    device_type == wgpu::DeviceType::Cpu && std::env::var_os("MULTIDRAW_TIMESTAMP_FLUSH").is_none_or(|v| v != "off")
}

/// Milliseconds of GPU time per pass of one frame, by pass name, in the order the frame
/// recorded them. A pass the frame did not run is absent.
///
/// The raw (begin, end) ticks of each pass are kept too: `profiling::clock` converts them to
/// CPU time, so the puffin GPU lane shows when each pass ran, gaps included.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuPassTimes {
    passes: [(&'static str, f64); MAX_PASSES],
    /// (begin, end) timestamp of each pass in GPU ticks (`Queue::get_timestamp_period` ns
    /// each); (0, 0) where built from durations alone ([`GpuPassTimes::from_passes`]).
    ticks: [(u64, u64); MAX_PASSES],
    len: usize,
}

impl Default for GpuPassTimes {
    fn default() -> Self {
        Self { passes: [("", 0.0); MAX_PASSES], ticks: [(0, 0); MAX_PASSES], len: 0 }
    }
}

impl GpuPassTimes {
    pub fn from_passes(passes: &[(&'static str, f64)]) -> Self {
        let mut times = Self::default();
        for &(name, ms) in passes.iter().take(MAX_PASSES) {
            times.passes[times.len] = (name, ms);
            times.len += 1;
        }
        times
    }

    /// The time of pass `name`, if the frame ran it: summed over the views that ran it.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.iter().filter(|(n, _)| *n == name).map(|&(_, ms)| ms).reduce(|a, b| a + b)
    }

    /// (pass name, ms) in recording order.
    pub fn iter(&self) -> impl Iterator<Item = &(&'static str, f64)> {
        self.passes[..self.len].iter()
    }

    /// (pass name, begin tick, end tick) in recording order.
    pub fn spans(&self) -> impl Iterator<Item = (&'static str, u64, u64)> + '_ {
        self.passes[..self.len]
            .iter()
            .zip(&self.ticks[..self.len])
            .map(|(&(name, _), &(begin, end))| (name, begin, end))
    }

    /// Every pass of the frame.
    pub fn total(&self) -> f64 {
        self.iter().map(|(_, ms)| ms).sum()
    }
}

pub struct GpuTimer {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    ring: ReadbackRing,
    /// Nanoseconds per tick.
    period: f64,
    /// Passes timed in the frame being recorded, in slot order.
    written: Vec<&'static str>,
    /// Passes timed by the frame whose results sit in each ring slot, by frame number.
    in_flight: Vec<(u64, Vec<&'static str>)>,
    /// A span opened before commands outside any pass ([`GpuTimer::begin_span`]): the pass it
    /// times and the end slot that pass writes.
    open_span: Option<(&'static str, u32)>,
    /// Where the timestamp that makes the driver read a pass's opening one is written
    /// ([`GpuTimer::with_opening_flush`]): never resolved, slot k for the pass whose opening
    /// timestamp is slot k.
    opening_flush: Option<wgpu::QuerySet>,
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
            written: Vec::with_capacity(MAX_PASSES),
            in_flight: Vec::new(),
            open_span: None,
            opening_flush: None,
        })
    }

    /// The timer of a renderer on an adapter of `device_type`: [`GpuTimer::new`], with the
    /// opening flush on CPU adapters ([`GpuTimer::with_opening_flush`]) unless
    /// `MULTIDRAW_TIMESTAMP_FLUSH=off`.
    pub fn for_adapter(device: &wgpu::Device, queue: &wgpu::Queue, device_type: wgpu::DeviceType) -> Option<Self> {
        let timer = Self::new(device, queue)?;
        Some(if flushes_openings_on(device_type) { timer.with_opening_flush(device) } else { timer })
    }

    /// This timer with every compute pass opened as a span followed by an empty pass that
    /// writes a timestamp nobody reads, which makes lavapipe read the opening timestamp before
    /// the pass's work (see the module's doc). For CPU adapters, whose drivers read a
    /// timestamp when their rasteriser gets to it.
    pub fn with_opening_flush(mut self, device: &wgpu::Device) -> Self {
        self.opening_flush = Some(device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("timestamp opening flush"),
            ty: wgpu::QueryType::Timestamp,
            count: QUERY_COUNT,
        }));
        self
    }

    /// Whether a span is open for pass `name` ([`GpuTimer::begin_span`]).
    pub fn span_open(&self, name: &str) -> bool {
        self.open_span.is_some_and(|(open, _)| open == name)
    }

    /// Whether compute passes open as spans, flushed ([`GpuTimer::with_opening_flush`]).
    pub fn flushes_openings(&self) -> bool {
        self.opening_flush.is_some()
    }

    /// The writes of the empty pass that follows the opening timestamp of the span just begun
    /// for `name` ([`GpuTimer::begin_span`]); `None` without an opening flush, or with no span
    /// open for `name`.
    pub fn opening_flush_writes(&self, name: &'static str) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        let (open, end) = self.open_span?;
        let set = self.opening_flush.as_ref()?;
        (open == name).then_some(wgpu::ComputePassTimestampWrites {
            query_set: set,
            beginning_of_pass_write_index: Some(end - 1),
            end_of_pass_write_index: None,
        })
    }

    /// The next free (begin, end) slots for pass `name`; `None` once a frame has timed
    /// `MAX_PASSES` passes (the pass then runs untimed).
    fn slots(&mut self, name: &'static str) -> Option<(u32, u32)> {
        if self.written.len() >= MAX_PASSES {
            return None;
        }
        let k = self.written.len() as u32;
        self.written.push(name);
        Some((2 * k, 2 * k + 1))
    }

    /// The slots pass `name` writes: both of its own, or only the end where a span was opened
    /// for it ([`GpuTimer::begin_span`]).
    fn pass_slots(&mut self, name: &'static str) -> Option<(Option<u32>, u32)> {
        if let Some((_, end)) = self.open_span.take_if(|(open, _)| *open == name) {
            return Some((None, end));
        }
        let (begin, end) = self.slots(name)?;
        Some((Some(begin), end))
    }

    /// Opens the timing of pass `name` early: the writes of an empty compute pass that takes
    /// its beginning, before commands that open no pass (a copy that starts the pass's work);
    /// the next pass opened under `name` takes the end.
    pub fn begin_span(&mut self, name: &'static str) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        debug_assert!(self.open_span.is_none(), "a span opened for {:?} was never closed", self.open_span);
        let (begin, end) = self.slots(name)?;
        self.open_span = Some((name, end));
        Some(wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(begin),
            end_of_pass_write_index: None,
        })
    }

    pub fn compute_writes(&mut self, name: &'static str) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        let (begin, end) = self.pass_slots(name)?;
        Some(wgpu::ComputePassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: begin,
            end_of_pass_write_index: Some(end),
        })
    }

    pub fn render_writes(&mut self, name: &'static str) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        let (begin, end) = self.pass_slots(name)?;
        Some(wgpu::RenderPassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: begin,
            end_of_pass_write_index: Some(end),
        })
    }

    /// Resolves what this frame wrote and queues its readback. Call last on the frame's encoder.
    pub fn resolve(&mut self, encoder: &mut wgpu::CommandEncoder, frame: u64) {
        debug_assert!(self.open_span.is_none(), "a span opened for {:?} was never closed", self.open_span);
        if self.written.is_empty() {
            return;
        }
        let written = std::mem::replace(&mut self.written, Vec::with_capacity(MAX_PASSES));
        let queries = written.len() as u32 * 2;
        let Some(staging) = self.ring.begin(frame) else {
            return;
        };
        encoder.resolve_query_set(&self.queries, 0..queries, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, staging, 0, queries as u64 * wgpu::QUERY_SIZE as u64);
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
            let mut times = GpuPassTimes::default();
            for (k, name) in written.into_iter().enumerate() {
                let (begin, end) = (ticks[2 * k], ticks[2 * k + 1]);
                let ms = end.saturating_sub(begin) as f64 * self.period / 1e6;
                times.passes[k] = (name, ms);
                times.ticks[k] = (begin, end);
                times.len += 1;
            }
            results.push((frame, times));
        }
        results
    }
}
