//! What one view of the frame owns on the GPU beside the scene's shared buffers: its frame
//! uniforms (camera, culling planes, detail thresholds) and its visibility bits (what its second
//! culling phase found visible and not hidden, or the compute rasteriser's pixels held: which
//! its next first phase draws), with the bind groups over
//! them. The views of a frame are recorded one after another into one encoder, so they share
//! the scene's working buffers (`instances`, `batch_counts`, `draws`, `draw_counts`): each view's
//! cull clears and refills them after the previous view's draws have read them.

use encase::ShaderSize;

use super::buffers::SceneBuffers;
use super::layout::{Layouts, CULL_IO, FRAME};
use super::types::FrameUniforms;
use crate::gpu::counted;

/// One view's uniforms and visibility bits, and the `frame` and `cull io` groups over them.
pub struct ViewBuffers {
    /// `FrameUniforms` of the view. Written by the CPU before each frame; read by every pass
    /// the view records.
    pub frame: wgpu::Buffer,
    /// Group `frame` over [`ViewBuffers::frame`] and the shadow map the view's surfaces read
    /// ([`ViewBuffers::bind_shadow_map`]; a placeholder until then).
    pub frame_bind_group: wgpu::BindGroup,
    /// The shadow map's comparison sampler: linear (four texels compared per tap), clamped.
    shadow_sampler: wgpu::Sampler,
    /// A 1×1 depth layer bound where the view reads no shadow map (and for the cascades, which
    /// draw into it).
    shadow_placeholder: wgpu::TextureView,
    /// The shadow map the frame group binds (`None`: the placeholder).
    shadow_map: Option<wgpu::TextureView>,
    /// The compute rasteriser's depth the frame group binds as `soft_depth`
    /// ([`ViewBuffers::bind_soft_depth`]; `None`: a 1×1 placeholder, `soft_placeholder`).
    soft_depth: Option<wgpu::TextureView>,
    soft_placeholder: wgpu::TextureView,
    /// Per slot of the cull order, 1 if the view's second culling phase found the object visible
    /// and not hidden, or, for the objects the compute rasteriser draws in a frame that marks,
    /// if it holds one of its pixels (`shaders/mark.wgsl`): its next first phase draws those.
    /// Zero when made (the view's first frame draws everything in phase 2); read and written by
    /// cull, set by the mark dispatch.
    pub visibility: wgpu::Buffer,
    /// Group `cull io`: the scene's shared buffers and this view's visibility bits.
    pub cull_bind_group: wgpu::BindGroup,
}

impl ViewBuffers {
    /// A view's buffers for `buffers`' scene; made again whenever the scene's buffers are.
    pub fn new(device: &wgpu::Device, layouts: &Layouts, buffers: &SceneBuffers) -> Self {
        let frame = counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("frame uniforms"),
                size: FrameUniforms::SHADER_SIZE.get(),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            },
        );
        let visibility = counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("visibility"),
                // Bindings hold at least one element, even for an empty scene.
                size: u64::from(buffers.object_count.max(1)) * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            },
        );
        let shadow_sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("shadow sampler"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let shadow_placeholder = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("shadow map placeholder"),
                size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: crate::gpu::target::DEPTH_FORMAT,
                usage: wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            })
            .create_view(&wgpu::TextureViewDescriptor {
                dimension: Some(wgpu::TextureViewDimension::D2Array),
                ..Default::default()
            });
        let soft_placeholder =
            crate::gpu_scene::buffers::placeholder(device, "soft depth placeholder", wgpu::TextureFormat::R32Float);
        let frame_bind_group =
            frame_group(device, layouts, &frame, [&shadow_placeholder, &soft_placeholder], &shadow_sampler);
        let cull_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(CULL_IO.label),
            layout: &layouts.cull_io,
            entries: &[
                CULL_IO.buffer("cull_records", &buffers.cull_records),
                CULL_IO.buffer("batches", &buffers.batches),
                CULL_IO.buffer("instances", &buffers.instances),
                CULL_IO.buffer("batch_counts", &buffers.batch_counts),
                CULL_IO.buffer("draws", &buffers.draws),
                CULL_IO.buffer("draw_counts", &buffers.draw_counts),
                CULL_IO.buffer("visibility", &visibility),
                CULL_IO.buffer("raster_args", &buffers.raster_args),
            ],
        });
        Self {
            frame,
            frame_bind_group,
            shadow_sampler,
            shadow_placeholder,
            shadow_map: None,
            soft_depth: None,
            soft_placeholder,
            visibility,
            cull_bind_group,
        }
    }

    /// Binds `shadow_map` (a depth array, one layer per cascade) as the shadow map the view's
    /// surfaces read, or the placeholder for `None`.
    pub fn bind_shadow_map(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        shadow_map: Option<&wgpu::TextureView>,
    ) {
        self.shadow_map = shadow_map.cloned();
        self.bind_frame(device, layouts);
    }

    /// Binds `soft_depth` (an R32Float texture of the target's size) as the compute
    /// rasteriser's depth the blended pass reads, or the placeholder for `None`. Returns
    /// whether the frame group changed (a bundle recorded with the old one must go).
    pub fn bind_soft_depth(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        soft_depth: Option<&wgpu::TextureView>,
    ) -> bool {
        if self.soft_depth.as_ref() == soft_depth {
            return false;
        }
        self.soft_depth = soft_depth.cloned();
        self.bind_frame(device, layouts);
        true
    }

    fn bind_frame(&mut self, device: &wgpu::Device, layouts: &Layouts) {
        let map = self.shadow_map.as_ref().unwrap_or(&self.shadow_placeholder);
        let soft_depth = self.soft_depth.as_ref().unwrap_or(&self.soft_placeholder);
        self.frame_bind_group = frame_group(device, layouts, &self.frame, [map, soft_depth], &self.shadow_sampler);
    }
}

/// Group `frame` over `frame`, the shadow map and the compute rasteriser's depth (`textures`),
/// and the shadow map's sampler.
fn frame_group(
    device: &wgpu::Device,
    layouts: &Layouts,
    frame: &wgpu::Buffer,
    textures: [&wgpu::TextureView; 2],
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    let [shadow_map, soft_depth] = textures;
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(FRAME.label),
        layout: &layouts.frame,
        entries: &[
            FRAME.buffer("frame", frame),
            FRAME.entry("shadow_map", wgpu::BindingResource::TextureView(shadow_map)),
            FRAME.entry("shadow_sampler", wgpu::BindingResource::Sampler(sampler)),
            FRAME.entry("soft_depth", wgpu::BindingResource::TextureView(soft_depth)),
        ],
    })
}
