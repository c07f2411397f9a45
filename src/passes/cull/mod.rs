//! Pass "cull" (`shaders/cull.wgsl`): one thread per object tests the object's animated
//! bounding sphere against the culling frustum, and writes either object ids into batch slices
//! (for the build pass) or one indirect draw per object. It clears the counters it increments
//! and copies the GPU's visible-object count into a readback ring, read a frame or two late.
//! [`cpu`] is the same test on the CPU: the baseline's culling and the tests' reference.

pub mod cpu;

use crate::gpu::commands::{dispatch_size, FrameEncoder};
use crate::gpu::readback::ReadbackRing;
use crate::gpu_scene::layout::{Layouts, CULL_IO, FRAME};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::SceneBuffers;
use crate::pipelines::{compute_all, compute_spec, PipelineCache, PipelineError};
use crate::tunables::VISIBLE_COUNTER_SLOT;

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "cull";

pub const SHADER: PassShader = PassShader {
    file: "shaders/cull.wgsl",
    body: include_str!("../../../shaders/cull.wgsl"),
    groups: &[&FRAME, &CULL_IO],
};

/// What the cull pass writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CullOutput {
    /// Object ids into batch slices; the build pass then turns batches into draws.
    Batches,
    /// One draw per object, written by the cull pass itself; no build pass.
    PerObject,
}

pub struct CullPass {
    /// Entry `cull`: ids into batch slices.
    batches: wgpu::ComputePipeline,
    /// Entry `cull_per_object`: one draw per object.
    per_object: wgpu::ComputePipeline,
    workgroup_size: u32,
    /// Copies of the visible-object counter (`draw_counts[VISIBLE_COUNTER_SLOT]`), by frame.
    visible: ReadbackRing,
}

impl CullPass {
    /// Gets both pipelines from the cache, compiling them in parallel.
    pub fn new(
        device: &wgpu::Device,
        cache: &PipelineCache,
        layouts: &Layouts,
        workgroup_size: u32,
    ) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(workgroup_size);
        let specs = [
            compute_spec(NAME, &layouts.cull, &shader, "cull"),
            compute_spec("cull per object", &layouts.cull, &shader, "cull_per_object"),
        ];
        let mut pipelines = compute_all(cache, &specs).into_iter();
        let mut next = || pipelines.next().expect("one result per spec");
        Ok(Self {
            batches: next()?,
            per_object: next()?,
            workgroup_size,
            visible: ReadbackRing::new(device, "visible count readback", 4),
        })
    }

    pub fn workgroup_size(&self) -> u32 {
        self.workgroup_size
    }

    /// Runs each pipeline once (see `frame::prewarm`).
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers) {
        let mut pass = frame.compute_pass(NAME);
        pass.set_bind_group(FRAME.index, &buffers.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &buffers.cull_bind_group);
        for pipeline in [&self.batches, &self.per_object] {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
    }

    /// Records the counter reset, the pass, and the copy of the visible count for `frame_number`.
    pub fn record(
        &mut self,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        output: CullOutput,
        frame_number: u64,
    ) {
        puffin::profile_scope!(NAME);
        // O(batches) and O(variants) bytes; no CPU loop over objects.
        frame.encoder.clear_buffer(&buffers.batch_counts, 0, None);
        frame.encoder.clear_buffer(&buffers.draw_counts, 0, None);
        {
            let mut pass = frame.compute_pass(NAME);
            pass.set_pipeline(match output {
                CullOutput::Batches => &self.batches,
                CullOutput::PerObject => &self.per_object,
            });
            pass.set_bind_group(FRAME.index, &buffers.frame_bind_group);
            pass.set_bind_group(CULL_IO.index, &buffers.cull_bind_group);
            let (x, y, _) = dispatch_size(buffers.object_count, self.workgroup_size);
            pass.dispatch(x, y);
        }
        if let Some(staging) = self.visible.begin(frame_number) {
            frame.encoder.copy_buffer_to_buffer(&buffers.draw_counts, VISIBLE_COUNTER_SLOT as u64 * 4, staging, 0, 4);
        }
    }

    /// Call after the submit that contains [`CullPass::record`].
    pub fn submitted(&mut self) {
        self.visible.submitted();
    }

    /// GPU-counted visible objects of finished frames as (frame, count), oldest first.
    pub fn collect(&mut self, device: &wgpu::Device) -> Vec<(u64, u32)> {
        self.visible
            .collect(device)
            .into_iter()
            .map(|(frame, bytes)| (frame, bytemuck::pod_read_unaligned(&bytes)))
            .collect()
    }
}
