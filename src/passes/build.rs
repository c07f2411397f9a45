//! Pass "build" (`shaders/build.wgsl`, and "build late" in the second phase): one thread per
//! batch turns the instance counts the cull pass wrote into `DrawIndexedIndirectArgs`,
//! compacted behind a per-variant count or one slot per batch (see the shader), and counts
//! what its phase draws. It reads and writes the cull pass's buffers, declared by the same
//! bind group tables, and clears nothing of its own: the cull pass clears the counters both
//! increment.
//!
//! A view's first phase (or only one) also orders its occluders here: the large opaque objects
//! the cull listed apart (`is_occluder` in `shaders/cull.wgsl`) sorted nearest first by one
//! workgroup (`shaders/blend.wgsl` with `OCCLUDERS` on) into draws that the first main pass
//! issues before any batch (`passes::main::indirect`), so that what they hide is rejected by
//! the depth test instead of written and written over. A second dispatch in the same pass,
//! timed with it. `MULTIDRAW_OCCLUDERS=off` leaves every object in its batch.

use crate::gpu::commands::{dispatch_size, FrameEncoder};
use crate::gpu_scene::layout::{Layouts, CULL_IO, FRAME, HIZ};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::{SceneBuffers, ViewBuffers};
use crate::passes::{blend, Phase};
use crate::pipelines::{compute_all, compute_spec, Constants, PipelineCache, PipelineError};

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "build";
/// The second phase's name.
pub const LATE_NAME: &str = "build late";
/// The occluder sort's wgpu label (its dispatch is timed with the build pass's).
const OCCLUDER_SORT_LABEL: &str = "occluder sort";

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
    /// The occluder sort; `None` where `MULTIDRAW_OCCLUDERS=off`.
    occluders: Option<wgpu::ComputePipeline>,
    workgroup_size: u32,
}

/// Whether the views list and sort occluders: unless `MULTIDRAW_OCCLUDERS=off`.
fn occluders_wanted() -> bool {
    crate::passes::env_switch("MULTIDRAW_OCCLUDERS") != Some(false)
}

impl BuildPass {
    pub fn new(cache: &PipelineCache, layouts: &Layouts, workgroup_size: u32) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(workgroup_size);
        let sort = blend::SHADER.spec(workgroup_size);
        let mut specs = vec![
            compute_spec(NAME, &layouts.cull, &shader, "build").with_constants(Phase::Only.late_constant()),
            compute_spec(LATE_NAME, &layouts.cull, &shader, "build").with_constants(Phase::Late.late_constant()),
        ];
        if occluders_wanted() {
            specs.push(
                compute_spec(OCCLUDER_SORT_LABEL, &layouts.cull, &sort, "sort")
                    .with_constants(Constants(vec![("OCCLUDERS", Constants::flag(true))])),
            );
        }
        let mut pipelines = compute_all(cache, &specs).into_iter();
        let mut next = || pipelines.next().expect("one result per spec");
        let (pipeline, late) = (next()?, next()?);
        let occluders = if specs.len() > 2 { Some(next()?) } else { None };
        Ok(Self { pipeline, late, occluders, workgroup_size })
    }

    /// Whether the views' first phases list occluders for this pass to sort.
    pub fn sorts_occluders(&self) -> bool {
        self.occluders.is_some()
    }

    /// Runs each pipeline once (see `frame::prewarm`).
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        let mut pass = frame.compute_pass(NAME);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &view.cull_bind_group);
        pass.set_bind_group(HIZ.index, &buffers.hiz_placeholder);
        for pipeline in [&self.pipeline, &self.late].into_iter().chain(&self.occluders) {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
    }

    /// Records the pass of `phase` under `name` (the phase's, or a shadow cascade's), with the
    /// occluder sort where `occluders` (a view's first or only phase whose uniforms list them).
    pub fn record(
        &self,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        phase: Phase,
        name: &'static str,
        occluders: bool,
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
        if let Some(sort) = self.occluders.as_ref().filter(|_| occluders) {
            pass.set_pipeline(sort);
            pass.dispatch(1, 1);
        }
    }
}
