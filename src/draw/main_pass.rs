//! Pass "main": owns the render pipeline of every variant (all on the universal layout) and
//! opens the render pass every way of drawing records into.

use super::recorder::CountingRenderPass;
use crate::gpu::buffers::SceneBuffers;
use crate::gpu::layout::{group, Layouts};
use crate::gpu::target::FrameTarget;
use crate::gpu::timer::{GpuTimer, TimedPass};
use crate::pipelines::{compile_parallel, shader_spec, variant_spec, PipelineCache, PipelineError};
use crate::scene::Variant;
use crate::shaders::ShaderSource;
use crate::tunables::WORKGROUP_SIZE;

/// Background colour of every frame.
pub const CLEAR_COLOR: wgpu::Color = wgpu::Color { r: 0.02, g: 0.025, b: 0.035, a: 1.0 };

pub struct MainPass {
    /// One pipeline per [`Variant`], indexed by `Variant as usize`; all share `Layouts::render`.
    pub pipelines: Vec<wgpu::RenderPipeline>,
    pub color_format: wgpu::TextureFormat,
}

impl MainPass {
    /// Gets every variant's pipeline from the cache, compiling them in parallel.
    pub fn new(
        cache: &PipelineCache,
        layouts: &Layouts,
        color_format: wgpu::TextureFormat,
    ) -> Result<Self, PipelineError> {
        let shader = shader_spec(ShaderSource::Draw, WORKGROUP_SIZE);
        let specs: Vec<_> =
            Variant::ALL.iter().map(|&v| variant_spec(&layouts.render, &shader, v, color_format)).collect();
        let jobs =
            specs.iter().map(|spec| Box::new(move || cache.render(spec)) as Box<dyn FnOnce() -> _ + Send>).collect();
        let pipelines = compile_parallel(jobs).into_iter().collect::<Result<Vec<_>, _>>()?;
        Ok(Self { pipelines, color_format })
    }

    /// Draws once with every pipeline into a 1×1 target (see `pipelines::prewarm`).
    pub fn prewarm(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        buffers: &SceneBuffers,
        color: &wgpu::TextureView,
        depth: &wgpu::TextureView,
    ) {
        let target = FrameTarget { color, depth, width: 1, height: 1 };
        let mut pass = self.begin_with_store(encoder, &target, None, wgpu::StoreOp::Discard);
        let mut counts = Default::default();
        let mut pass = CountingRenderPass { pass: &mut pass, counts: &mut counts };
        Self::bind_scene(&mut pass, buffers);
        // The identity slot of object 0, or the padding element of an empty scene.
        let instance = if buffers.object_count > 0 { buffers.object_count } else { 0 };
        for pipeline in &self.pipelines {
            pass.set_pipeline(pipeline);
            pass.draw_indexed(0..3, 0, instance..instance + 1);
        }
    }

    pub fn pipeline(&self, variant: usize) -> &wgpu::RenderPipeline {
        &self.pipelines[variant]
    }

    /// Begins the main pass (clear colour and depth), timed when a timer is given.
    pub fn begin<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        target: &FrameTarget<'_>,
        timer: Option<&mut GpuTimer>,
    ) -> wgpu::RenderPass<'e> {
        self.begin_with_store(encoder, target, timer, wgpu::StoreOp::Store)
    }

    fn begin_with_store<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        target: &FrameTarget<'_>,
        timer: Option<&mut GpuTimer>,
        store: wgpu::StoreOp,
    ) -> wgpu::RenderPass<'e> {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("main"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.color,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(CLEAR_COLOR), store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: target.depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: timer.map(|t| t.render_writes(TimedPass::Main)),
            occlusion_query_set: None,
        })
    }

    /// Sets the three bind groups and the mesh arena's buffers: once per pass, they survive
    /// every `set_pipeline` because every variant uses the same layout.
    pub fn bind_scene(pass: &mut CountingRenderPass<'_, '_>, buffers: &SceneBuffers) {
        pass.set_bind_group(group::FRAME, &buffers.frame_bind_group);
        pass.set_bind_group(group::SCENE, &buffers.scene_bind_group);
        pass.set_bind_group(group::TEXTURES, &buffers.texture_bind_group);
        pass.set_vertex_buffer(0, &buffers.vertices);
        pass.set_index_buffer(&buffers.indices);
    }
}
