//! Pass "build" (`shaders/build.wgsl`): one thread per batch turns the instance counts the
//! cull pass wrote into `DrawIndexedIndirectArgs`, compacted behind a per-variant count or one
//! slot per batch (see the shader). It reads and writes the cull pass's buffers, declared by
//! the same bind group table, and clears nothing of its own: the cull pass clears the counters
//! both increment.

use crate::gpu::commands::{dispatch_size, FrameEncoder};
use crate::gpu_scene::layout::{Layouts, CULL_IO, FRAME};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::SceneBuffers;
use crate::pipelines::{compute_spec, PipelineCache, PipelineError};

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "build";

pub const SHADER: PassShader = PassShader {
    file: "shaders/build.wgsl",
    body: include_str!("../../shaders/build.wgsl"),
    groups: &[&FRAME, &CULL_IO],
};

pub struct BuildPass {
    /// Entry `build`.
    pipeline: wgpu::ComputePipeline,
    workgroup_size: u32,
}

impl BuildPass {
    pub fn new(cache: &PipelineCache, layouts: &Layouts, workgroup_size: u32) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(workgroup_size);
        let pipeline = cache.compute(&compute_spec(NAME, &layouts.cull, &shader, "build"))?;
        Ok(Self { pipeline, workgroup_size })
    }

    /// Runs the pipeline once (see `frame::prewarm`).
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers) {
        let mut pass = frame.compute_pass(NAME);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(FRAME.index, &buffers.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &buffers.cull_bind_group);
        pass.dispatch(1, 1);
    }

    pub fn record(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers) {
        puffin::profile_scope!(NAME);
        let mut pass = frame.compute_pass(NAME);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(FRAME.index, &buffers.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &buffers.cull_bind_group);
        // The shader reads `dispatch_width` too; a batch count never needs a second dimension
        // (there are at most meshes × variants batches), so one row suffices.
        let (x, _, _) = dispatch_size(buffers.batch_count, self.workgroup_size);
        pass.dispatch(x, 1);
    }
}
