//! The GPU-driven draws of the main pass: per variant one `set_pipeline` and one multi-draw
//! over the draws the cull/build passes wrote. Nothing recorded here depends on the object
//! count (the `gpu_driven` tests count it).

use super::{CountingRenderPass, VariantPipelines};
use crate::gpu_scene::types::DRAW_ARGS_SIZE;
use crate::gpu_scene::{PreparedScene, SceneBuffers};
use crate::passes::cull::CullOutput;
use crate::scene::Variant;
use crate::tunables::COUNTER_OCCLUDERS;

/// How the GPU-written draws are laid out and consumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndirectDraws {
    /// One draw per batch (written by build) or per object (written by cull).
    pub output: CullOutput,
    /// Compacted behind a GPU-written count (`multi_draw_indexed_indirect_count`), or one slot
    /// per batch/object, empty ones included (`multi_draw_indexed_indirect`).
    pub counted: bool,
    /// The view's occluders first: the occluder sort's draws, nearest first, with the opaque
    /// pipeline, before the batches (a view's first or only main pass, where its uniforms list
    /// them: `passes::build`). A plan's draws say false; the renderer sets it per pass.
    pub occluders: bool,
}

/// The wgpu call that consumes the draws; serialised as its method name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IndirectCall {
    MultiDrawIndexedIndirect,
    MultiDrawIndexedIndirectCount,
}

impl IndirectDraws {
    /// Whether these draws can start with a list of occluders: batches (whose large opaque
    /// objects the cull can list apart) behind a count (the occluders' count is the sort's).
    pub fn can_list_occluders(self) -> bool {
        self.output == CullOutput::Batches && self.counted
    }

    pub fn call(self) -> IndirectCall {
        if self.counted {
            IndirectCall::MultiDrawIndexedIndirectCount
        } else {
            IndirectCall::MultiDrawIndexedIndirect
        }
    }
}

/// Where `draws.occluders`, the opaque pipeline and one multi-draw of the occluders' sorted
/// draws; then per variant of the scene, `pipelines`' pipeline and one multi-draw of the
/// variant's draws; the blend variant's are the blended pass's (`MainPass::record_blend`), not
/// this one's.
pub(crate) fn record(
    pipelines: &impl VariantPipelines,
    pass: &mut CountingRenderPass<'_>,
    buffers: &SceneBuffers,
    prepared: &PreparedScene,
    draws: IndirectDraws,
) {
    if draws.occluders && buffers.occluder_capacity > 0 {
        pass.set_pipeline(pipelines.variant_pipeline(Variant::Opaque as usize));
        pass.multi_draw_indexed_indirect_count(
            &buffers.draws,
            buffers.occluder_draw_base as u64 * DRAW_ARGS_SIZE,
            &buffers.draw_counts,
            COUNTER_OCCLUDERS as u64 * 4,
            buffers.occluder_capacity,
        );
    }
    for (variant, range) in prepared.variants.iter().enumerate() {
        if range.object_count == 0 || variant == Variant::Blend as usize {
            continue;
        }
        pass.set_pipeline(pipelines.variant_pipeline(variant));
        // A variant's draws start at its first batch (batched) or first object (per object)
        // and there are at most that many of them.
        let (first, max_count) = match draws.output {
            CullOutput::Batches => (range.first_batch, range.batch_count),
            CullOutput::PerObject => (range.first_object, range.object_count),
        };
        let offset = first as u64 * DRAW_ARGS_SIZE;
        if draws.counted {
            pass.multi_draw_indexed_indirect_count(
                &buffers.draws,
                offset,
                &buffers.draw_counts,
                variant as u64 * 4,
                max_count,
            );
        } else {
            pass.multi_draw_indexed_indirect(&buffers.draws, offset, max_count);
        }
    }
}
