//! The GPU culling passes ("cull" and "build", see `shaders/cull.wgsl` and
//! `shaders/build.wgsl`) and the CPU reference ([`cpu`]).

pub mod cpu;

use crate::draw::recorder::{CountingComputePass, PassCommands};
use crate::gpu::buffers::SceneBuffers;
use crate::gpu::layout::{group, Layouts};
use crate::gpu::timer::{GpuTimer, TimedPass};
use crate::pipelines::{compile_parallel, compute_spec, shader_spec, PipelineCache, PipelineError};
use crate::shaders::ShaderSource;
use crate::tunables::MAX_WORKGROUPS_PER_DIMENSION;

/// Workgroups for `threads` threads, split over y past the per-dimension limit, and the
/// number of threads in one row (`FrameUniforms::dispatch_width`).
pub fn dispatch_size(threads: u32, workgroup_size: u32) -> (u32, u32, u32) {
    let groups = threads.div_ceil(workgroup_size).max(1);
    if groups <= MAX_WORKGROUPS_PER_DIMENSION {
        (groups, 1, groups * workgroup_size)
    } else {
        let rows = groups.div_ceil(MAX_WORKGROUPS_PER_DIMENSION);
        let columns = groups.div_ceil(rows);
        (columns, rows, columns * workgroup_size)
    }
}

/// Which culling output a frame needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CullOutput {
    /// Object ids into batch slices, then "build" turns batches into draws.
    Batches,
    /// One draw per object, written by "cull" itself; no build pass.
    PerObject,
}

/// Owns the cull and build compute pipelines.
pub struct CullPass {
    /// Entry `cull` of `shaders/cull.wgsl`. Public, like `build`, for
    /// `examples/record_ladder.rs`, which records frames with parts left out.
    pub cull: wgpu::ComputePipeline,
    /// Entry `cull_per_object` of `shaders/cull.wgsl`.
    cull_per_object: wgpu::ComputePipeline,
    /// Entry `build` of `shaders/build.wgsl`.
    pub build: wgpu::ComputePipeline,
    pub workgroup_size: u32,
}

impl CullPass {
    /// Gets the three pipelines from the cache, compiling them in parallel on worker threads.
    pub fn new(cache: &PipelineCache, layouts: &Layouts, workgroup_size: u32) -> Result<Self, PipelineError> {
        let cull_shader = shader_spec(ShaderSource::Cull, workgroup_size);
        let build_shader = shader_spec(ShaderSource::Build, workgroup_size);
        let specs = [
            compute_spec("cull", &layouts.cull, &cull_shader, "cull"),
            compute_spec("cull per object", &layouts.cull, &cull_shader, "cull_per_object"),
            compute_spec("build", &layouts.cull, &build_shader, "build"),
        ];
        let jobs =
            specs.iter().map(|spec| Box::new(move || cache.compute(spec)) as Box<dyn FnOnce() -> _ + Send>).collect();
        let mut pipelines = compile_parallel(jobs).into_iter();
        let mut next = || pipelines.next().expect("one result per spec");
        Ok(Self { cull: next()?, cull_per_object: next()?, build: next()?, workgroup_size })
    }

    /// Runs each pipeline once (see `pipelines::prewarm`).
    pub fn prewarm(&self, encoder: &mut wgpu::CommandEncoder, buffers: &SceneBuffers) {
        let mut pass = encoder
            .begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("prewarm cull"), timestamp_writes: None });
        pass.set_bind_group(group::FRAME, &buffers.frame_bind_group, &[]);
        pass.set_bind_group(group::CULL_IO, &buffers.cull_bind_group, &[]);
        for pipeline in [&self.cull, &self.cull_per_object, &self.build] {
            pass.set_pipeline(pipeline);
            pass.dispatch_workgroups(1, 1, 1);
        }
    }

    /// Records the counter reset, "cull" and (for batches) "build".
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        buffers: &SceneBuffers,
        output: CullOutput,
        timer: Option<&mut GpuTimer>,
        cull_counts: &mut PassCommands,
        build_counts: &mut PassCommands,
    ) {
        puffin::profile_function!();
        // O(batches) and O(variants) bytes; no CPU loop over objects.
        encoder.clear_buffer(&buffers.batch_counts, 0, None);
        encoder.clear_buffer(&buffers.draw_counts, 0, None);
        let mut timer = timer;
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("cull"),
                timestamp_writes: timer.as_deref_mut().map(|t| t.compute_writes(TimedPass::Cull)),
            });
            let mut pass = CountingComputePass { pass: &mut pass, counts: cull_counts };
            pass.set_pipeline(match output {
                CullOutput::Batches => &self.cull,
                CullOutput::PerObject => &self.cull_per_object,
            });
            pass.set_bind_group(group::FRAME, &buffers.frame_bind_group);
            pass.set_bind_group(group::CULL_IO, &buffers.cull_bind_group);
            let (x, y, _) = dispatch_size(buffers.object_count, self.workgroup_size);
            pass.dispatch(x, y);
        }
        if output == CullOutput::Batches {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("build"),
                timestamp_writes: timer.map(|t| t.compute_writes(TimedPass::Build)),
            });
            let mut pass = CountingComputePass { pass: &mut pass, counts: build_counts };
            pass.set_pipeline(&self.build);
            pass.set_bind_group(group::FRAME, &buffers.frame_bind_group);
            pass.set_bind_group(group::CULL_IO, &buffers.cull_bind_group);
            // The build pass reads `dispatch_width` too; a batch count never needs a second
            // dimension (there are at most meshes × variants batches), so one row suffices.
            let (x, _, _) = dispatch_size(buffers.batch_count, self.workgroup_size);
            pass.dispatch(x, 1);
        }
    }
}
