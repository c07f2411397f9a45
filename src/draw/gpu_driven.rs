//! The GPU-driven main pass: bind everything once, then per variant one `set_pipeline` and one
//! multi-draw over the draws the cull/build passes wrote. Nothing recorded here depends on the
//! object count (tests/gpu_driven.rs counts it).

use super::main_pass::MainPass;
use super::recorder::CountingRenderPass;
use crate::gpu::buffers::SceneBuffers;
use crate::gpu::types::DRAW_ARGS_SIZE;
use crate::scene::PreparedScene;

/// How the GPU-written draws are consumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndirectDraws {
    /// Per-batch draws, compacted, with the GPU-written count.
    BatchesCounted,
    /// Per-batch draws, one slot per batch, empty ones included, no count buffer.
    BatchesAll,
    /// Per-object draws, compacted, with the GPU-written count.
    ObjectsCounted,
    /// Per-object draws, one per object (instance_count 0 or 1), no count buffer.
    ObjectsAll,
}

pub fn record(
    main: &MainPass,
    pass: &mut CountingRenderPass<'_, '_>,
    buffers: &SceneBuffers,
    prepared: &PreparedScene,
    draws: IndirectDraws,
) {
    puffin::profile_function!();
    MainPass::bind_scene(pass, buffers);
    for (variant, range) in prepared.variants.iter().enumerate() {
        if range.object_count == 0 {
            continue;
        }
        pass.set_pipeline(main.pipeline(variant));
        let count_offset = variant as u64 * 4;
        match draws {
            IndirectDraws::BatchesCounted => pass.multi_draw_indexed_indirect_count(
                &buffers.draws,
                range.first_batch as u64 * DRAW_ARGS_SIZE,
                &buffers.draw_counts,
                count_offset,
                range.batch_count,
            ),
            IndirectDraws::BatchesAll => pass.multi_draw_indexed_indirect(
                &buffers.draws,
                range.first_batch as u64 * DRAW_ARGS_SIZE,
                range.batch_count,
            ),
            IndirectDraws::ObjectsCounted => pass.multi_draw_indexed_indirect_count(
                &buffers.draws,
                range.first_object as u64 * DRAW_ARGS_SIZE,
                &buffers.draw_counts,
                count_offset,
                range.object_count,
            ),
            IndirectDraws::ObjectsAll => pass.multi_draw_indexed_indirect(
                &buffers.draws,
                range.first_object as u64 * DRAW_ARGS_SIZE,
                range.object_count,
            ),
        }
    }
}
