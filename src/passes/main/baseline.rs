//! The CPU-recorded baseline: CPU culling and LOD selection (`passes::cull::cpu`, the same
//! tests as the shader), then one `draw_indexed` per visible object through the same pipelines
//! and bind groups. It is the best plain CPU path, not a strawman: bind groups and buffers are
//! set once per pass, pipelines once per variant (objects are sorted by variant), and each draw
//! only selects its level's index range and its slot in the level's identity range of
//! `instances[]`, `first_instance = identity_base + level × objects + id`.

use std::ops::Range;

use super::{CountingRenderPass, VariantPipelines};
use crate::gpu_scene::{PreparedScene, SceneBuffers};
use crate::passes::cull::cpu::DrawnObject;

/// Where the baseline's draws go: a render pass or a render bundle encoder.
pub trait DrawSink {
    fn set_variant(&mut self, variant: usize);
    fn draw_indexed(&mut self, indices: Range<u32>, base_vertex: i32, instances: Range<u32>);
}

struct PassSink<'m, 'a, 'p, P> {
    pipelines: &'m P,
    pass: &'a mut CountingRenderPass<'p>,
}

impl<P: VariantPipelines> DrawSink for PassSink<'_, '_, '_, P> {
    fn set_variant(&mut self, variant: usize) {
        self.pass.set_pipeline(self.pipelines.variant_pipeline(variant));
    }

    fn draw_indexed(&mut self, indices: Range<u32>, base_vertex: i32, instances: Range<u32>) {
        self.pass.draw_indexed(indices, base_vertex, instances);
    }
}

/// Records the draws of `visible` (ids in ascending order, hence grouped by variant).
pub(crate) fn record(
    pipelines: &impl VariantPipelines,
    pass: &mut CountingRenderPass<'_>,
    buffers: &SceneBuffers,
    prepared: &PreparedScene,
    visible: &[DrawnObject],
) {
    record_draws(visible, prepared, buffers.identity_base, &mut PassSink { pipelines, pass });
}

/// The per-object draw loop shared by the baseline pass and the render bundle.
pub fn record_draws(visible: &[DrawnObject], prepared: &PreparedScene, identity_base: u32, sink: &mut impl DrawSink) {
    let mut current_variant = None;
    let objects = prepared.objects.len() as u32;
    for &DrawnObject { id, batch } in visible {
        let batch = &prepared.batches[batch as usize];
        if current_variant != Some(batch.variant) {
            sink.set_variant(batch.variant as usize);
            current_variant = Some(batch.variant);
        }
        let instance = identity_base + batch.level * objects + id;
        sink.draw_indexed(
            batch.first_index..batch.first_index + batch.index_count,
            batch.base_vertex,
            instance..instance + 1,
        );
    }
}
