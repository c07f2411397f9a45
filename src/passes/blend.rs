//! Pass "blend sort" (`shaders/blend.wgsl`) and the name of the blended pass it feeds: the
//! blended objects the last culling phase listed, ordered farthest first by one workgroup, and
//! written as indirect draws. The blended pass itself ("blend", `MainPass::record_blend`) is a
//! render pass of its own after the last main pass: the blend variant's pipeline (alpha
//! blending, depth tested, depth not written) and one multi-draw over those draws, so it has
//! its own GPU timestamp and puffin scope, draws over every opaque and masked object of both
//! phases, and never reaches the depth pyramid (built before it, from the first phase).
//!
//! Without a draw count (gpu-nocount, WebGPU) the multi-draw would cover one slot per blended
//! object of the scene, each a draw call on WebGPU; there the sort writes its order for one
//! instanced draw instead (`vs_pulled` reads each object's vertices from the arenas,
//! instances in order keep it farthest first), so the pass is one draw call at any count
//! (`SceneBuffers::pulls_blend`; arenas too large to bind as storage keep the slots).
//!
//! The CPU modes sort their blended objects on the CPU into the same order
//! (`passes::cull::cpu`) and draw them at the end of their main pass.

use crate::gpu::commands::FrameEncoder;
use crate::gpu_scene::layout::{Layouts, CULL_IO, FRAME, HIZ};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::{SceneBuffers, ViewBuffers};
use crate::pipelines::{compute_spec, PipelineCache, PipelineError};

/// The sort's wgpu label, puffin scope and GPU timestamp name.
pub const SORT_NAME: &str = "blend sort";
/// The blended render pass's name.
pub const NAME: &str = "blend";

pub const SHADER: PassShader = PassShader {
    file: "shaders/blend.wgsl",
    body: include_str!("../../shaders/blend.wgsl"),
    groups: &[&FRAME, &CULL_IO, &HIZ],
};

pub struct BlendSortPass {
    pipeline: wgpu::ComputePipeline,
}

impl BlendSortPass {
    pub fn new(cache: &PipelineCache, layouts: &Layouts, workgroup_size: u32) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(workgroup_size);
        let spec = compute_spec(SORT_NAME, &layouts.cull, &shader, "sort");
        Ok(Self { pipeline: cache.compute(&spec)? })
    }

    /// Runs the pipeline once (see `frame::prewarm`).
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        self.record(frame, buffers, view);
    }

    /// Sorts the view's listed blended objects and writes their draws: one workgroup.
    pub fn record(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        profile_scope!(SORT_NAME);
        let mut pass = frame.compute_pass(SORT_NAME);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(CULL_IO.index, &view.cull_bind_group);
        pass.set_bind_group(HIZ.index, &buffers.hiz_placeholder);
        pass.dispatch(1, 1);
    }
}
