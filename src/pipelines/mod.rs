//! Pipeline creation: every pipeline of the engine is made here, inside error scopes, so a
//! shader or descriptor error becomes a typed [`PipelineError`] naming the pipeline instead of
//! wgpu's default panic. Pipelines are created once, when a renderer is built, never inside the
//! frame loop.

use crate::gpu::layout::Layouts;
use crate::gpu::target::DEPTH_FORMAT;
use crate::mesh::Vertex;
use crate::scene::Variant;
use crate::shaders::ShaderSource;

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum PipelineError {
    #[error("pipeline \"{label}\" failed to compile: {message}")]
    Compile { label: String, message: String },
}

/// The device's error scopes form one stack shared by every thread (wgpu 27), so creations
/// that use them are serialised through this lock.
static ERROR_SCOPE_LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs `create` inside validation and out-of-memory scopes and turns a captured error into a
/// [`PipelineError`] for `label`.
pub fn with_error_scope<T>(device: &wgpu::Device, label: &str, create: impl FnOnce() -> T) -> Result<T, PipelineError> {
    let _serial = ERROR_SCOPE_LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
    device.push_error_scope(wgpu::ErrorFilter::Validation);
    let value = create();
    let validation = pollster::block_on(device.pop_error_scope());
    let memory = pollster::block_on(device.pop_error_scope());
    match validation.or(memory) {
        Some(error) => Err(PipelineError::Compile { label: label.to_string(), message: error.to_string() }),
        None => Ok(value),
    }
}

pub fn shader_module(
    device: &wgpu::Device,
    source: ShaderSource,
    workgroup_size: u32,
) -> Result<wgpu::ShaderModule, PipelineError> {
    shader_module_from_wgsl(device, source.file_name(), &source.compose(workgroup_size))
}

pub fn shader_module_from_wgsl(
    device: &wgpu::Device,
    label: &str,
    wgsl: &str,
) -> Result<wgpu::ShaderModule, PipelineError> {
    with_error_scope(device, label, || {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        })
    })
}

pub fn compute_pipeline(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry_point: &str,
) -> Result<wgpu::ComputePipeline, PipelineError> {
    with_error_scope(device, label, || {
        device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(label),
            layout: Some(layout),
            module,
            entry_point: Some(entry_point),
            compilation_options: Default::default(),
            cache: None,
        })
    })
}

/// What distinguishes one render variant from another: only shader entry and rasteriser state.
pub struct VariantState {
    pub fragment_entry: &'static str,
    pub cull_mode: Option<wgpu::Face>,
}

pub fn variant_state(variant: Variant) -> VariantState {
    match variant {
        Variant::Opaque => VariantState { fragment_entry: "fs_opaque", cull_mode: Some(wgpu::Face::Back) },
        Variant::Masked => VariantState { fragment_entry: "fs_masked", cull_mode: Some(wgpu::Face::Back) },
        Variant::DoubleSided => VariantState { fragment_entry: "fs_opaque", cull_mode: None },
        Variant::Debug => VariantState { fragment_entry: "fs_debug", cull_mode: Some(wgpu::Face::Back) },
    }
}

/// The render pipeline of one variant, on the universal layout.
pub fn render_pipeline(
    device: &wgpu::Device,
    layouts: &Layouts,
    module: &wgpu::ShaderModule,
    variant: Variant,
    color_format: wgpu::TextureFormat,
) -> Result<wgpu::RenderPipeline, PipelineError> {
    let state = variant_state(variant);
    let label = format!("main {}", variant.name());
    with_error_scope(device, &label, || {
        device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(&label),
            layout: Some(&layouts.render),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Vertex::layout()],
            },
            primitive: wgpu::PrimitiveState {
                topology: wgpu::PrimitiveTopology::TriangleList,
                front_face: wgpu::FrontFace::Ccw,
                cull_mode: state.cull_mode,
                ..Default::default()
            },
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: true,
                depth_compare: wgpu::CompareFunction::Less,
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: Default::default(),
            fragment: Some(wgpu::FragmentState {
                module,
                entry_point: Some(state.fragment_entry),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: color_format,
                    blend: None,
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview: None,
            cache: None,
        })
    })
}
