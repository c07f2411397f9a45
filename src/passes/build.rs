//! Pass "build" (`shaders/build.wgsl`, and "build late" in the second phase): one thread per
//! batch turns the instance counts the cull pass wrote into `DrawIndexedIndirectArgs`,
//! compacted behind a per-variant count or one slot per batch (see the shader), and counts
//! what its phase draws. It reads and writes the cull pass's buffers, declared by the same
//! bind group tables, and clears nothing of its own: the cull pass clears the counters both
//! increment.

use crate::gpu::commands::{dispatch_size, FrameEncoder};
use crate::gpu_scene::layout::{Layouts, CULL_IO, FRAME, HIZ};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::{SceneBuffers, ViewBuffers};
use crate::passes::Phase;
use crate::pipelines::{compute_all, compute_spec, PipelineCache, PipelineError};

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "build";
/// The second phase's name.
pub const LATE_NAME: &str = "build late";

pub const SHADER: PassShader = PassShader {
    file: "shaders/build.wgsl",
    body: include_str!("../../shaders/build.wgsl"),
    groups: &[&FRAME, &CULL_IO, &HIZ],
};

pub struct BuildPass {
    /// The first or only phase.
    pipeline: wgpu::ComputePipeline,
    /// The second phase (`LATE` override on: counts into the second phase's drawn counter).
    late: wgpu::ComputePipeline,
    workgroup_size: u32,
}

impl BuildPass {
    pub fn new(cache: &PipelineCache, layouts: &Layouts, workgroup_size: u32) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(workgroup_size);
        let specs = [
            compute_spec(NAME, &layouts.cull, &shader, "build").with_constants(Phase::Only.late_constant()),
            compute_spec(LATE_NAME, &layouts.cull, &shader, "build").with_constants(Phase::Late.late_constant()),
        ];
        let mut pipelines = compute_all(cache, &specs).into_iter();
        let mut next = || pipelines.next().expect("one result per spec");
        Ok(Self { pipeline: next()?, late: next()?, workgroup_size })
    }

    /// Runs each pipeline once (see `frame::prewarm`).
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        let mut pass = frame.compute_pass(NAME);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &view.cull_bind_group);
        pass.set_bind_group(HIZ.index, &buffers.hiz_placeholder);
        for pipeline in [&self.pipeline, &self.late] {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
    }

    /// Records the pass of `phase` under `name` (the phase's, or a shadow cascade's).
    pub fn record(
        &self,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        phase: Phase,
        name: &'static str,
    ) {
        profile_scope!(name);
        let mut pass = frame.compute_pass(name);
        pass.set_pipeline(if phase == Phase::Late { &self.late } else { &self.pipeline });
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &view.cull_bind_group);
        pass.set_bind_group(HIZ.index, &buffers.hiz_placeholder);
        // The shader reads `dispatch_width` too; a batch count never needs a second dimension
        // (there are at most meshes × variants batches), so one row suffices.
        let (x, _, _) = dispatch_size(buffers.batch_count, self.workgroup_size);
        pass.dispatch(x, 1);
    }
}
