//! Counting wrappers around wgpu passes: every command the engine records goes through them,
//! so tests and the benchmark can show that the GPU-driven frame records the same commands at
//! any object count and sets each bind group once per pass.

use crate::gpu::layout::group;

/// Commands recorded into one pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PassCommands {
    pub set_pipeline: u32,
    /// `set_bind_group` calls per group index.
    pub set_bind_group: [u32; group::COUNT],
    pub set_vertex_buffer: u32,
    pub set_index_buffer: u32,
    pub draw_indexed: u32,
    pub multi_draw_indexed_indirect: u32,
    pub multi_draw_indexed_indirect_count: u32,
    pub execute_bundles: u32,
    pub dispatch: u32,
}

impl PassCommands {
    /// Draw-type commands: direct draws, multi-draws and bundle executions.
    pub fn draw_commands(&self) -> u32 {
        self.draw_indexed
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
    }
}

/// Commands of a whole frame, per pass.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct FrameCommands {
    pub cull: PassCommands,
    pub build: PassCommands,
    pub main: PassCommands,
}

impl FrameCommands {
    pub fn draw_commands(&self) -> u32 {
        self.main.draw_commands()
    }

    /// `set_bind_group` calls per group index, summed over the frame's passes.
    pub fn bind_group_sets(&self) -> [u32; group::COUNT] {
        std::array::from_fn(|g| {
            self.cull.set_bind_group[g] + self.build.set_bind_group[g] + self.main.set_bind_group[g]
        })
    }
}

/// A render pass that counts what is recorded into it.
pub struct CountingRenderPass<'a, 'p> {
    pub pass: &'a mut wgpu::RenderPass<'p>,
    pub counts: &'a mut PassCommands,
}

impl CountingRenderPass<'_, '_> {
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

    pub fn draw_indexed(&mut self, indices: std::ops::Range<u32>, base_vertex: i32, instances: std::ops::Range<u32>) {
        self.counts.draw_indexed += 1;
        self.pass.draw_indexed(indices, base_vertex, instances);
    }

    pub fn multi_draw_indexed_indirect(&mut self, draws: &wgpu::Buffer, offset: u64, count: u32) {
        self.counts.multi_draw_indexed_indirect += 1;
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

    pub fn execute_bundle(&mut self, bundle: &wgpu::RenderBundle) {
        self.counts.execute_bundles += 1;
        self.pass.execute_bundles(std::iter::once(bundle));
    }
}

/// A compute pass that counts what is recorded into it.
pub struct CountingComputePass<'a, 'p> {
    pub pass: &'a mut wgpu::ComputePass<'p>,
    pub counts: &'a mut PassCommands,
}

impl CountingComputePass<'_, '_> {
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
}
