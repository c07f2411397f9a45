//! Prewarming: before the first frame, every pipeline runs once on the GPU into a 1×1 colour +
//! depth target whose contents are discarded, and start-up waits for it. Drivers may defer
//! part of a pipeline's compilation until its first use; prewarming moves that cost out of the
//! first frame.
//!
//! The frame uniforms are still zero at this point, so the cull pipelines see zero objects and
//! the draws are degenerate: the GPU runs every pipeline without changing any engine state.

use std::time::Instant;

use crate::cull::CullPass;
use crate::draw::main_pass::MainPass;
use crate::gpu::buffers::SceneBuffers;
use crate::gpu::GpuContext;

/// Runs every pipeline once and waits; returns the milliseconds it took.
pub fn prewarm(ctx: &GpuContext, cull: &CullPass, main: &MainPass, buffers: &SceneBuffers) -> f64 {
    puffin::profile_function!();
    let start = Instant::now();
    let size = wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 };
    let color = ctx.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("prewarm colour"),
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: main.color_format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    });
    let depth = crate::gpu::target::depth_texture(&ctx.device, 1, 1);
    let mut encoder = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("prewarm") });
    cull.prewarm(&mut encoder, buffers);
    main.prewarm(
        &mut encoder,
        buffers,
        &color.create_view(&Default::default()),
        &depth.create_view(&Default::default()),
    );
    ctx.queue.submit([encoder.finish()]);
    ctx.wait_idle();
    start.elapsed().as_secs_f64() * 1e3
}
