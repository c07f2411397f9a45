//! Prewarming: before the first frame, every pipeline runs once on the GPU into a 1×1 colour +
//! depth target whose contents are discarded, and start-up waits for it. Drivers may defer
//! part of a pipeline's compilation until its first use; prewarming moves that cost out of the
//! first frame. Each pass knows how to run its own pipelines once (`prewarm`); this only makes
//! the target, calls them and waits.
//!
//! The frame uniforms are still zero at this point, so the cull pipelines see zero objects and
//! the draws are degenerate: the GPU runs every pipeline without changing any engine state.

use crate::clock::Instant;

use super::view::ViewState;
use crate::gpu::commands::FrameEncoder;
use crate::gpu::target::{depth_texture, FrameTarget};
use crate::gpu::GpuContext;
use crate::gpu_scene::{Layouts, SceneBuffers};
use crate::passes::blend::BlendSortPass;
use crate::passes::build::BuildPass;
use crate::passes::cull::CullPass;
use crate::passes::deferred::DeferredPass;
use crate::passes::main::MainPass;
use crate::passes::scatter::{ObjectUpdates, ScatterPass};
use crate::passes::shadow::ShadowPass;

/// The passes prewarming runs, besides the view's own pyramid and compute rasteriser.
pub(crate) struct Passes<'a> {
    pub cull: &'a CullPass,
    pub build: &'a BuildPass,
    pub blend: &'a BlendSortPass,
    pub main: &'a MainPass,
    pub shadow: &'a ShadowPass,
    pub scatter: (&'a ScatterPass, &'a ObjectUpdates),
}

/// Runs every pipeline once with `view`'s bindings and waits; returns the milliseconds it
/// took. The view's pyramid and visibility buffer are fitted to the 1×1 prewarm target; its
/// first frame fits them to its own.
pub(crate) fn prewarm(
    ctx: &GpuContext,
    passes: &Passes<'_>,
    layouts: &Layouts,
    buffers: &SceneBuffers,
    view: &mut ViewState,
) -> f64 {
    profile_function!();
    let start = Instant::now();
    let color = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("prewarm colour"),
        size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: passes.main.color_format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let depth = depth_texture(&ctx.device, 1, 1);
    let (color, depth) = (color.create_view(&Default::default()), depth.create_view(&Default::default()));
    let mut frame = FrameEncoder::new(&ctx.device, "prewarm", None);
    passes.scatter.0.prewarm(&mut frame, passes.scatter.1);
    passes.cull.prewarm(&mut frame, buffers, &view.gpu);
    passes.build.prewarm(&mut frame, buffers, &view.gpu);
    passes.blend.prewarm(&mut frame, buffers, &view.gpu);
    let raster = view.raster.as_mut().map(|raster| {
        raster.fit(&ctx.device, layouts, buffers, &view.gpu.visibility, (1, 1));
        raster.prewarm_compute(&mut frame, buffers, &view.gpu);
        &*raster
    });
    let target =
        FrameTarget { color: &color, depth: &depth, width: 1, height: 1, keep_color: false, complete_depth: false };
    if let Some(deferred) = view.deferred.as_mut() {
        deferred.fit(&ctx.device, layouts, buffers, (&depth, 1, 1), raster);
    }
    let deferred = view.deferred.as_ref();
    passes.main.prewarm(&mut frame, buffers, &view.gpu, &target, deferred.map(DeferredPass::ids), raster);
    if let Some(deferred) = view.deferred.as_mut() {
        deferred.prewarm(&ctx.device, layouts, &mut frame, buffers, &view.gpu, &target);
    }
    let layer = ShadowPass::prewarm_target(&ctx.device);
    passes.shadow.prewarm(&mut frame, &ctx.device, layouts, buffers, &view.gpu, &layer, raster);
    view.pyramid.resize(&ctx.device, &depth, 1, 1);
    if let Some(raster) = raster {
        view.pyramid.fit_soft(&ctx.device, raster.visibility_buffer());
    }
    view.pyramid.prewarm(&mut frame, raster.is_some());
    ctx.queue.submit([frame.encoder.finish()]);
    ctx.wait_idle();
    start.elapsed().as_secs_f64() * 1e3
}
