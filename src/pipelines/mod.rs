//! Pipelines: every pipeline of the engine comes from the content-keyed [`PipelineCache`],
//! is created on worker threads when a renderer is built ([`compile_parallel`]), drawn once
//! before the first frame ([`prewarm`]), and compiled through the driver's cache, persisted on
//! disk between runs ([`disk`]). Nothing is compiled inside the frame loop.
//!
//! Render variants differ only in fragment entry point and rasteriser state; all use the one
//! universal pipeline layout, so bind groups survive every `set_pipeline`.

pub mod cache;
pub mod disk;
pub mod prewarm;

use std::sync::Arc;

pub use cache::{ComputeSpec, PipelineCache, RenderSpec, ShaderSpec, VertexBufferSpec};

use crate::gpu::target::DEPTH_FORMAT;
use crate::mesh::Vertex;
use crate::scene::Variant;
use crate::shaders::ShaderSource;

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum PipelineError {
    #[error("pipeline \"{label}\" failed to compile: {message}")]
    Compile { label: String, message: String },
}

impl PipelineError {
    /// The same error, reported for the pipeline that needed the failed shader.
    pub fn for_pipeline(self, pipeline: &str) -> Self {
        match self {
            PipelineError::Compile { label, message } => PipelineError::Compile {
                label: pipeline.to_string(),
                message: format!("shader \"{label}\": {message}"),
            },
        }
    }

    pub fn label(&self) -> &str {
        match self {
            PipelineError::Compile { label, .. } => label,
        }
    }
}

/// The composed WGSL of a pass, labelled with its file name.
pub fn shader_spec(source: ShaderSource, workgroup_size: u32) -> ShaderSpec {
    ShaderSpec { label: source.file_name().to_string(), source: Arc::new(source.compose(workgroup_size)) }
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

/// The render pipeline of one variant on `layout` (the universal layout everywhere but tests).
pub fn variant_spec(
    layout: &wgpu::PipelineLayout,
    shader: &ShaderSpec,
    variant: Variant,
    color_format: wgpu::TextureFormat,
) -> RenderSpec {
    let state = variant_state(variant);
    let vertex = Vertex::layout();
    RenderSpec {
        label: format!("main {}", variant.name()),
        layout: layout.clone(),
        shader: shader.clone(),
        vertex_entry: "vs_main".into(),
        fragment_entry: Some(state.fragment_entry.into()),
        constants: Vec::new(),
        vertex_buffers: vec![VertexBufferSpec {
            array_stride: vertex.array_stride,
            step_mode: vertex.step_mode,
            attributes: vertex.attributes.to_vec(),
        }],
        targets: vec![Some(wgpu::ColorTargetState {
            format: color_format,
            blend: None,
            write_mask: wgpu::ColorWrites::ALL,
        })],
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
    }
}

pub fn compute_spec(label: &str, layout: &wgpu::PipelineLayout, shader: &ShaderSpec, entry: &str) -> ComputeSpec {
    ComputeSpec {
        label: label.to_string(),
        layout: layout.clone(),
        shader: shader.clone(),
        entry: entry.to_string(),
        constants: Vec::new(),
    }
}

/// Runs `jobs` on worker threads (one per job, at most the machine's parallelism at once) and
/// returns their results in order. Used at start-up so pipelines compile in parallel, off the
/// thread that builds the scene.
pub fn compile_parallel<T: Send>(jobs: Vec<Box<dyn FnOnce() -> T + Send + '_>>) -> Vec<T> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).max(1);
    let mut results: Vec<Option<T>> = (0..jobs.len()).map(|_| None).collect();
    let queue = std::sync::Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let finished = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers.min(queue.lock().expect("job queue").len()) {
            scope.spawn(|| loop {
                let Some((index, job)) = queue.lock().expect("job queue").pop() else { break };
                let result = job();
                finished.lock().expect("results").push((index, result));
            });
        }
    });
    for (index, result) in finished.into_inner().expect("results") {
        results[index] = Some(result);
    }
    results.into_iter().map(|r| r.expect("every job ran")).collect()
}
