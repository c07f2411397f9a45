//! Recording a frame: every pass is opened through [`FrameEncoder`], which gives it its label,
//! its GPU timestamps and its command counts from one name, and every command goes through
//! the counting wrappers, so tests and the benchmark can show that the GPU-driven frame
//! records the same commands at any object count and sets each bind group once per pass.

use std::ops::Range;

use super::timer::GpuTimer;
use crate::tunables::{BIND_GROUPS, MAX_PASSES, MAX_WORKGROUPS_PER_DIMENSION};

/// Commands recorded into one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PassCommands {
    pub set_pipeline: u32,
    /// `set_bind_group` calls per group index.
    pub set_bind_group: [u32; BIND_GROUPS],
    pub set_vertex_buffer: u32,
    pub set_index_buffer: u32,
    pub draw_indexed: u32,
    /// Non-indexed draws, direct or indirect (the compute rasteriser's full-screen resolve).
    pub draw: u32,
    pub multi_draw_indexed_indirect: u32,
    pub multi_draw_indexed_indirect_count: u32,
    pub execute_bundles: u32,
    pub dispatch: u32,
    pub dispatch_indirect: u32,
}

impl PassCommands {
    /// Draw-type commands: direct draws, multi-draws and bundle executions.
    pub fn draw_commands(&self) -> u32 {
        self.draw_indexed
            + self.draw
            + self.multi_draw_indexed_indirect
            + self.multi_draw_indexed_indirect_count
            + self.execute_bundles
    }

    pub fn total(&self) -> u32 {
        self.set_pipeline
            + self.set_bind_group.iter().sum::<u32>()
            + self.set_vertex_buffer
            + self.set_index_buffer
            + self.draw_commands()
            + self.dispatch
            + self.dispatch_indirect
    }
}

/// Commands of a whole frame, per pass name, in recording order. Fixed-size so a frame's
/// statistics cost no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameCommands {
    passes: [(&'static str, PassCommands); MAX_PASSES],
    len: usize,
}

impl Default for FrameCommands {
    fn default() -> Self {
        Self { passes: [("", PassCommands::default()); MAX_PASSES], len: 0 }
    }
}

impl FrameCommands {
    /// The counts of pass `name`, added (empty) on first use.
    pub fn pass_mut(&mut self, name: &'static str) -> &mut PassCommands {
        let index = match self.passes[..self.len].iter().position(|(n, _)| *n == name) {
            Some(index) => index,
            None => {
                assert!(self.len < MAX_PASSES, "more than MAX_PASSES ({MAX_PASSES}) passes in one frame");
                self.passes[self.len] = (name, PassCommands::default());
                self.len += 1;
                self.len - 1
            }
        };
        &mut self.passes[index].1
    }

    /// The counts of pass `name`; all zero when the frame did not record it.
    pub fn pass(&self, name: &str) -> PassCommands {
        self.iter().find(|(n, _)| *n == name).map(|(_, c)| *c).unwrap_or_default()
    }

    /// (pass name, counts) in recording order.
    pub fn iter(&self) -> impl Iterator<Item = &(&'static str, PassCommands)> {
        self.passes[..self.len].iter()
    }

    pub fn draw_commands(&self) -> u32 {
        self.iter().map(|(_, c)| c.draw_commands()).sum()
    }

    pub fn total(&self) -> u32 {
        self.iter().map(|(_, c)| c.total()).sum()
    }

    /// `set_bind_group` calls per group index, summed over the frame's passes.
    pub fn bind_group_sets(&self) -> [u32; BIND_GROUPS] {
        std::array::from_fn(|g| self.iter().map(|(_, c)| c.set_bind_group[g]).sum())
    }
}

impl serde::Serialize for FrameCommands {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.len))?;
        for (name, counts) in self.iter() {
            map.serialize_entry(name, counts)?;
        }
        map.end()
    }
}

/// The command encoder of one frame, with the frame's timer and command counts.
pub struct FrameEncoder<'t> {
    pub encoder: wgpu::CommandEncoder,
    /// `None` without `TIMESTAMP_QUERY`, and while prewarming.
    pub timer: Option<&'t mut GpuTimer>,
    pub commands: FrameCommands,
    /// Draw slots the frame's `multi_draw_indexed_indirect` calls cover, summed: the draw
    /// calls a backend without multi-draw makes in their place (WebGPU: one
    /// `drawIndexedIndirect` per slot, looped over on the CPU).
    pub indirect_slots: u32,
}

impl<'t> FrameEncoder<'t> {
    pub fn new(device: &wgpu::Device, label: &str, timer: Option<&'t mut GpuTimer>) -> Self {
        let encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some(label) });
        Self::new_with(encoder, timer)
    }

    /// Records into `encoder` (a caller's), with no command counted yet.
    pub fn new_with(encoder: wgpu::CommandEncoder, timer: Option<&'t mut GpuTimer>) -> Self {
        Self { encoder, timer, commands: FrameCommands::default(), indirect_slots: 0 }
    }

    /// Opens compute pass `name`: wgpu label, timestamp slot and command counts all use it.
    /// Where the timer flushes openings ([`GpuTimer::with_opening_flush`]: CPU adapters) the
    /// pass opens as a span whose opening timestamp is flushed before the pass begins (unless
    /// [`FrameEncoder::before_pass`] began it).
    pub fn compute_pass(&mut self, name: &'static str) -> CountingComputePass<'_> {
        if self.timer.as_deref().is_some_and(|t| t.flushes_openings() && !t.span_open(name)) {
            self.open_span(name);
        }
        let pass = self.encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(name),
            timestamp_writes: self.timer.as_deref_mut().and_then(|t| t.compute_writes(name)),
        });
        CountingComputePass { pass, counts: self.commands.pass_mut(name) }
    }

    /// Records `commands`, which open no pass (a copy), as the start of pass `name`: its timed
    /// span begins before them (an empty compute pass takes the beginning timestamp) and ends
    /// with the next pass opened under `name`, so the pass's GPU time includes theirs.
    pub fn before_pass(&mut self, name: &'static str, commands: impl FnOnce(&mut wgpu::CommandEncoder)) {
        self.open_span(name);
        commands(&mut self.encoder);
    }

    /// Begins the timed span of pass `name` with an empty compute pass that writes its opening
    /// timestamp, and where the timer flushes openings, a second empty pass that makes the
    /// driver read it now ([`GpuTimer::with_opening_flush`]).
    fn open_span(&mut self, name: &'static str) {
        let Some(timer) = self.timer.as_deref_mut() else {
            return;
        };
        if let Some(writes) = timer.begin_span(name) {
            drop(self.encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(name),
                timestamp_writes: Some(writes),
            }));
        }
        if let Some(writes) = timer.opening_flush_writes(name) {
            drop(self.encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("timestamp opening flush"),
                timestamp_writes: Some(writes),
            }));
        }
    }

    /// Opens render pass `name` on these attachments, named as [`FrameEncoder::compute_pass`].
    pub fn render_pass(
        &mut self,
        name: &'static str,
        color_attachments: &[Option<wgpu::RenderPassColorAttachment<'_>>],
        depth_stencil_attachment: Option<wgpu::RenderPassDepthStencilAttachment<'_>>,
    ) -> CountingRenderPass<'_> {
        let pass = self.encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(name),
            color_attachments,
            depth_stencil_attachment,
            timestamp_writes: self.timer.as_deref_mut().and_then(|t| t.render_writes(name)),
            occlusion_query_set: None,
        });
        CountingRenderPass { pass, counts: self.commands.pass_mut(name), slots: &mut self.indirect_slots }
    }
}

/// A render pass that counts what is recorded into it.
pub struct CountingRenderPass<'e> {
    pass: wgpu::RenderPass<'e>,
    counts: &'e mut PassCommands,
    slots: &'e mut u32,
}

impl CountingRenderPass<'_> {
    pub fn set_pipeline(&mut self, pipeline: &wgpu::RenderPipeline) {
        self.counts.set_pipeline += 1;
        self.pass.set_pipeline(pipeline);
    }

    pub fn set_bind_group(&mut self, index: u32, bind_group: &wgpu::BindGroup) {
        self.counts.set_bind_group[index as usize] += 1;
        self.pass.set_bind_group(index, bind_group, &[]);
    }

    pub fn set_vertex_buffer(&mut self, slot: u32, buffer: &wgpu::Buffer) {
        self.counts.set_vertex_buffer += 1;
        self.pass.set_vertex_buffer(slot, buffer.slice(..));
    }

    pub fn set_index_buffer(&mut self, buffer: &wgpu::Buffer) {
        self.counts.set_index_buffer += 1;
        self.pass.set_index_buffer(buffer.slice(..), wgpu::IndexFormat::Uint32);
    }

    pub fn draw_indexed(&mut self, indices: Range<u32>, base_vertex: i32, instances: Range<u32>) {
        self.counts.draw_indexed += 1;
        self.pass.draw_indexed(indices, base_vertex, instances);
    }

    pub fn draw(&mut self, vertices: Range<u32>, instances: Range<u32>) {
        self.counts.draw += 1;
        self.pass.draw(vertices, instances);
    }

    /// A non-indexed draw whose arguments the GPU wrote at `offset` of `args`.
    pub fn draw_indirect(&mut self, args: &wgpu::Buffer, offset: u64) {
        self.counts.draw += 1;
        self.pass.draw_indirect(args, offset);
    }

    pub fn multi_draw_indexed_indirect(&mut self, draws: &wgpu::Buffer, offset: u64, count: u32) {
        self.counts.multi_draw_indexed_indirect += 1;
        *self.slots += count;
        self.pass.multi_draw_indexed_indirect(draws, offset, count);
    }

    pub fn multi_draw_indexed_indirect_count(
        &mut self,
        draws: &wgpu::Buffer,
        offset: u64,
        counts: &wgpu::Buffer,
        count_offset: u64,
        max_count: u32,
    ) {
        self.counts.multi_draw_indexed_indirect_count += 1;
        self.pass.multi_draw_indexed_indirect_count(draws, offset, counts, count_offset, max_count);
    }

    /// Replays `bundle`; `replayed` is what the bundle records each time it runs (its own
    /// state changes run again with every replay), added to this pass's counts.
    pub fn execute_bundle(&mut self, bundle: &wgpu::RenderBundle, replayed: &PassCommands) {
        self.counts.execute_bundles += 1;
        for (count, bundle_count) in self.counts.set_bind_group.iter_mut().zip(replayed.set_bind_group) {
            *count += bundle_count;
        }
        self.pass.execute_bundles(std::iter::once(bundle));
    }
}

/// A compute pass that counts what is recorded into it.
pub struct CountingComputePass<'e> {
    pass: wgpu::ComputePass<'e>,
    counts: &'e mut PassCommands,
}

impl CountingComputePass<'_> {
    pub fn set_pipeline(&mut self, pipeline: &wgpu::ComputePipeline) {
        self.counts.set_pipeline += 1;
        self.pass.set_pipeline(pipeline);
    }

    pub fn set_bind_group(&mut self, index: u32, bind_group: &wgpu::BindGroup) {
        self.counts.set_bind_group[index as usize] += 1;
        self.pass.set_bind_group(index, bind_group, &[]);
    }

    pub fn dispatch(&mut self, x: u32, y: u32) {
        self.counts.dispatch += 1;
        self.pass.dispatch_workgroups(x, y, 1);
    }

    /// A dispatch whose workgroup counts the GPU wrote at `offset` of `args`.
    pub fn dispatch_indirect(&mut self, args: &wgpu::Buffer, offset: u64) {
        self.counts.dispatch_indirect += 1;
        self.pass.dispatch_workgroups_indirect(args, offset);
    }
}

/// Workgroups for `threads` threads, split over y past the per-dimension limit, and the
/// number of threads in one row (`FrameUniforms::dispatch_width`).
pub fn dispatch_size(threads: u32, workgroup_size: u32) -> (u32, u32, u32) {
    let groups = threads.div_ceil(workgroup_size).max(1);
    if groups <= MAX_WORKGROUPS_PER_DIMENSION {
        (groups, 1, groups * workgroup_size)
    } else {
        let rows = groups.div_ceil(MAX_WORKGROUPS_PER_DIMENSION);
        let columns = groups.div_ceil(rows);
        (columns, rows, columns * workgroup_size)
    }
}
