//! Prewarming: before the first frame, every pipeline runs once on the GPU into a 1×1 colour +
//! depth target whose contents are discarded, and start-up waits for it. Drivers may defer
//! part of a pipeline's compilation until its first use; prewarming moves that cost out of the
//! first frame. Each pass knows how to run its own pipelines once (`prewarm`); this only makes
//! the target, calls them and waits.
//!
//! The frame uniforms are still zero at this point, so the cull pipelines see zero objects and
//! the draws are degenerate: the GPU runs every pipeline without changing any engine state.

use std::time::Instant;

use crate::gpu::commands::FrameEncoder;
use crate::gpu::target::{depth_texture, FrameTarget};
use crate::gpu::GpuContext;
use crate::gpu_scene::{Layouts, SceneBuffers};
use crate::passes::build::BuildPass;
use crate::passes::cull::CullPass;
use crate::passes::main::MainPass;
use crate::passes::pyramid::PyramidPass;
use crate::passes::raster::RasterPass;
use crate::passes::scatter::{ObjectUpdates, ScatterPass};

/// Runs every pipeline once and waits; returns the milliseconds it took.
/// The pyramid is fitted to the 1×1 prewarm depth buffer; the first two-phase frame fits it to
/// its own.
pub fn prewarm(
    ctx: &GpuContext,
    cull: &CullPass,
    build: &BuildPass,
    main: &MainPass,
    (pyramid, raster): (&mut PyramidPass, Option<&mut RasterPass>),
    (scatter, updates): (&ScatterPass, &ObjectUpdates),
    buffers: &SceneBuffers,
) -> f64 {
    profile_function!();
    let start = Instant::now();
    let color = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("prewarm colour"),
        size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: main.color_format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let depth = depth_texture(&ctx.device, 1, 1);
    let (color, depth) = (color.create_view(&Default::default()), depth.create_view(&Default::default()));
    let mut frame = FrameEncoder::new(&ctx.device, "prewarm", None);
    scatter.prewarm(&mut frame, updates);
    cull.prewarm(&mut frame, buffers);
    build.prewarm(&mut frame, buffers);
    let raster = raster.map(|raster| {
        raster.fit(&ctx.device, &Layouts::shared(&ctx.device, &ctx.pipelines), buffers, 1, 1);
        raster.prewarm_compute(&mut frame, buffers);
        &*raster
    });
    main.prewarm(
        &mut frame,
        buffers,
        &FrameTarget { color: &color, depth: &depth, width: 1, height: 1, keep_color: false },
        raster,
    );
    pyramid.resize(&ctx.device, &depth, 1, 1);
    pyramid.prewarm(&mut frame, raster.map(RasterPass::pyramid_group));
    ctx.queue.submit([frame.encoder.finish()]);
    ctx.wait_idle();
    start.elapsed().as_secs_f64() * 1e3
}
