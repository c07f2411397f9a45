//! Render bundles: the baseline's draws recorded once into a `RenderBundle` and replayed each
//! frame with one `execute_bundles`. Replaying is cheap, but the bundle freezes the visible set
//! it was recorded with, so it is only valid while nothing moves (neither objects nor the
//! culling camera); the benchmark runs this mode with animation off and says so.
//! wgpu bundles cannot hold multi-draws, so this is the CPU-recorded path's best case.

use std::ops::Range;

use super::baseline::{record_draws, DrawSink};
use super::VariantPipelines;
use crate::gpu::commands::PassCommands;
use crate::gpu_scene::layout::{FRAME, SCENE, TEXTURES};
use crate::gpu_scene::{PreparedScene, SceneBuffers, ViewBuffers};
use crate::passes::cull::cpu::DrawnObject;

struct BundleSink<'m, 'e, P> {
    pipelines: &'m P,
    encoder: wgpu::RenderBundleEncoder<'e>,
    commands: PassCommands,
}

impl<'m: 'e, 'e, P: VariantPipelines> DrawSink for BundleSink<'m, 'e, P> {
    fn set_variant(&mut self, variant: usize) {
        self.commands.set_pipeline += 1;
        self.encoder.set_pipeline(self.pipelines.variant_pipeline(variant));
    }

    fn draw_indexed(&mut self, indices: Range<u32>, base_vertex: i32, instances: Range<u32>) {
        self.commands.draw_indexed += 1;
        self.encoder.draw_indexed(indices, base_vertex, instances);
    }
}

/// A recorded bundle and the visible set it froze.
pub struct RecordedBundle {
    pub bundle: wgpu::RenderBundle,
    pub visible: u32,
    /// What the bundle replays each time it runs.
    pub commands: PassCommands,
}

/// Records the baseline's draws of `visible` into a bundle. Bundles reset pass state when they
/// run, so the bundle sets its own bind groups and buffers.
pub fn record(
    device: &wgpu::Device,
    pipelines: &impl VariantPipelines,
    buffers: &SceneBuffers,
    view: &ViewBuffers,
    prepared: &PreparedScene,
    visible: &[DrawnObject],
) -> RecordedBundle {
    profile_function!();
    let color_formats = pipelines.color_targets();
    let mut encoder = device.create_render_bundle_encoder(&wgpu::RenderBundleEncoderDescriptor {
        label: Some("baseline bundle"),
        color_formats: &color_formats,
        depth_stencil: Some(wgpu::RenderBundleDepthStencil {
            format: pipelines.depth_format(),
            depth_read_only: false,
            stencil_read_only: true,
        }),
        sample_count: 1,
        multiview: None,
    });
    encoder.set_bind_group(FRAME.index, &view.frame_bind_group, &[]);
    encoder.set_bind_group(SCENE.index, &buffers.scene_bind_group, &[]);
    encoder.set_bind_group(TEXTURES.index, &buffers.texture_bind_group, &[]);
    encoder.set_vertex_buffer(0, buffers.vertices.slice(..));
    encoder.set_index_buffer(buffers.indices.slice(..), wgpu::IndexFormat::Uint32);
    let mut sink = BundleSink { pipelines, encoder, commands: PassCommands::default() };
    sink.commands.set_bind_group = [1; crate::tunables::BIND_GROUPS];
    sink.commands.set_vertex_buffer = 1;
    sink.commands.set_index_buffer = 1;
    record_draws(visible, prepared, buffers.identity_base, &mut sink);
    let bundle = sink.encoder.finish(&wgpu::RenderBundleDescriptor { label: Some("baseline bundle") });
    RecordedBundle { bundle, visible: visible.len() as u32, commands: sink.commands }
}
