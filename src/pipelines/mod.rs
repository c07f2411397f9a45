//! Pipelines: every pipeline of the engine comes from the content-keyed [`PipelineCache`],
//! is created on worker threads when a renderer is built ([`compile_parallel`]), and compiled
//! through the driver's cache, persisted on disk between runs ([`disk`]). Nothing is compiled
//! inside the frame loop; prewarming (`frame::prewarm`) runs each pipeline once before the
//! first frame.
//!
//! This layer knows no pass and no scene: passes hand it descriptors ([`RenderSpec`],
//! [`ComputeSpec`]) and it hands back pipelines. It sits below `gpu/`, whose device context
//! owns the one cache per device.

pub mod cache;
pub mod disk;

use std::sync::Arc;

pub use cache::{ComputeSpec, Constants, PipelineCache, RenderSpec, ShaderSpec, VertexBufferSpec};

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

/// A shader of complete WGSL, labelled (by its file name, in the engine).
pub fn shader_spec(label: &str, source: String) -> ShaderSpec {
    ShaderSpec { label: label.to_string(), source: Arc::new(source) }
}

pub fn compute_spec(label: &str, layout: &wgpu::PipelineLayout, shader: &ShaderSpec, entry: &str) -> ComputeSpec {
    ComputeSpec {
        label: label.to_string(),
        layout: layout.clone(),
        shader: shader.clone(),
        entry: entry.to_string(),
        constants: Constants::default(),
    }
}

/// Parses and validates WGSL with naga, as wgpu will; the error names the line.
pub fn validate_wgsl(source: &str) -> Result<naga::Module, String> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| e.emit_to_string(source))?;
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .map_err(|e| e.emit_to_string(source))?;
    Ok(module)
}

/// Gets every spec's pipeline from `cache`, compiling in parallel ([`compile_parallel`]);
/// results in spec order.
pub fn compute_all(cache: &PipelineCache, specs: &[ComputeSpec]) -> Vec<Result<wgpu::ComputePipeline, PipelineError>> {
    compile_parallel(
        specs.iter().map(|spec| Box::new(move || cache.compute(spec)) as Box<dyn FnOnce() -> _ + Send>).collect(),
    )
}

/// As [`compute_all`], for render pipelines.
pub fn render_all(cache: &PipelineCache, specs: &[RenderSpec]) -> Vec<Result<wgpu::RenderPipeline, PipelineError>> {
    compile_parallel(
        specs.iter().map(|spec| Box::new(move || cache.render(spec)) as Box<dyn FnOnce() -> _ + Send>).collect(),
    )
}

/// Runs `jobs` on worker threads (one per job, at most the machine's parallelism at once; in
/// place where there are no threads, `crate::threads`) and returns their results in order. Used
/// at start-up so pipelines compile in parallel, off the thread that builds the scene.
pub fn compile_parallel<T: Send>(jobs: Vec<Box<dyn FnOnce() -> T + Send + '_>>) -> Vec<T> {
    let workers = crate::threads::workers();
    let mut results: Vec<Option<T>> = (0..jobs.len()).map(|_| None).collect();
    let queue = std::sync::Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let finished = std::sync::Mutex::new(Vec::new());
    // Counted before the loop: a guard in the loop's head would be held through it, and
    // without threads each job runs inside the loop.
    let threads = workers.min(queue.lock().expect("job queue").len());
    crate::threads::scope(|scope| {
        for _ in 0..threads {
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
