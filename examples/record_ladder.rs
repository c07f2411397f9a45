//! Experiment behind docs/BENCHMARKS.md, "Not reached: gpu record time under 0.2 ms": what each part
//! of the gpu mode's frame costs to record when the CPU has been busy elsewhere for a while.
//!
//! Before every frame the thread spins for SPIN_MS (68 ms, a 1,000,000-object GPU frame on the
//! H200) with a camera that sees nothing, so the GPU frames stay short and only the host CPU's
//! state differs from a warm run (SPIN_MS 0). Each rung records the frame with some parts left
//! out and reports the median encoder-creation-to-`finish` time; "renderer" is the engine's own
//! `Renderer::render`. Frames with parts left out draw nonsense; only their timing matters.
//!
//! `cargo run --release --example record_ladder -- [OBJECTS] [FRAMES] [SPIN_MS]`

use std::time::{Duration, Instant};

use glam::Vec3;
use multidraw::cull::dispatch_size;
use multidraw::draw::gpu_driven::{self, IndirectDraws};
use multidraw::draw::recorder::{CountingRenderPass, PassCommands};
use multidraw::gpu::buffers::SceneBuffers;
use multidraw::gpu::layout::group;
use multidraw::gpu::readback::staging_buffer;
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu::timer::{GpuTimer, TimedPass};
use multidraw::scene::file::default_scene_with_objects;
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext, Renderer};

const WARMUP: usize = 5;

/// Which parts of the gpu mode's frame a rung records.
#[derive(Clone, Copy)]
struct Parts {
    /// The two counter clears before culling.
    clears: bool,
    /// 0: none; 1: cull and build dispatches in one compute pass; 2: a pass each (the engine's).
    compute_passes: u32,
    timestamps: bool,
    /// The visible-count copy, and with timestamps the query resolve and its copy.
    readback: bool,
    /// The main render pass with its three multi-draws.
    render: bool,
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// One compute pass over the cull bind groups running `dispatches` (pipeline, x, y) in order.
fn compute_pass(
    encoder: &mut wgpu::CommandEncoder,
    label: &str,
    timestamp_writes: Option<wgpu::ComputePassTimestampWrites<'_>>,
    buffers: &SceneBuffers,
    dispatches: &[(&wgpu::ComputePipeline, u32, u32)],
) {
    let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some(label), timestamp_writes });
    pass.set_bind_group(group::FRAME, &buffers.frame_bind_group, &[]);
    pass.set_bind_group(group::CULL_IO, &buffers.cull_bind_group, &[]);
    for &(pipeline, x, y) in dispatches {
        pass.set_pipeline(pipeline);
        pass.dispatch_workgroups(x, y, 1);
    }
}

/// Records frame `frame` with `parts`; the main pass and the timestamp readback are the
/// engine's own (`MainPass::begin`, `gpu_driven::record`, `GpuTimer`).
fn record(
    ctx: &GpuContext,
    renderer: &Renderer,
    target: &OffscreenTarget,
    parts: Parts,
    timer: &mut GpuTimer,
    counts_copy: &wgpu::Buffer,
    frame: u64,
) -> wgpu::CommandBuffer {
    let buffers = &renderer.buffers;
    let mut encoder = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
    if parts.clears {
        encoder.clear_buffer(&buffers.batch_counts, 0, None);
        encoder.clear_buffer(&buffers.draw_counts, 0, None);
    }
    let mut timer = parts.timestamps.then_some(timer);
    let cull = &renderer.cull;
    let (cull_x, cull_y, _) = dispatch_size(buffers.object_count, cull.workgroup_size);
    let (build_x, _, _) = dispatch_size(buffers.batch_count, cull.workgroup_size);
    if parts.compute_passes > 0 {
        let cull_writes = timer.as_deref_mut().map(|t| t.compute_writes(TimedPass::Cull));
        if parts.compute_passes == 1 {
            let both = [(&cull.cull, cull_x, cull_y), (&cull.build, build_x, 1)];
            compute_pass(&mut encoder, "cull", cull_writes, buffers, &both);
        } else {
            compute_pass(&mut encoder, "cull", cull_writes, buffers, &[(&cull.cull, cull_x, cull_y)]);
            let build_writes = timer.as_deref_mut().map(|t| t.compute_writes(TimedPass::Build));
            compute_pass(&mut encoder, "build", build_writes, buffers, &[(&cull.build, build_x, 1)]);
        }
    }
    if parts.readback {
        encoder.copy_buffer_to_buffer(&buffers.draw_counts, 0, counts_copy, 0, buffers.draw_counts.size());
    }
    if parts.render {
        let mut pass = renderer.main.begin(&mut encoder, &target.frame_target(), timer.as_deref_mut());
        let mut counts = PassCommands::default();
        let mut pass = CountingRenderPass { pass: &mut pass, counts: &mut counts };
        gpu_driven::record(&renderer.main, &mut pass, buffers, &renderer.prepared, IndirectDraws::BatchesCounted);
    }
    if let (true, Some(timer)) = (parts.readback, timer) {
        timer.resolve(&mut encoder, frame);
    }
    encoder.finish()
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let objects: u32 = args.first().map_or(Ok(1_000_000), |a| a.parse())?;
    let frames: usize = args.get(1).map_or(Ok(30), |a| a.parse())?;
    let spin_ms: u64 = args.get(2).map_or(Ok(68), |a| a.parse())?;

    let ctx = GpuContext::headless(&ContextOptions::default())?;
    if !ctx.has_timestamps() || !ctx.has_count_draws() {
        anyhow::bail!("the ladder needs TIMESTAMP_QUERY and MULTI_DRAW_INDIRECT_COUNT");
    }
    let mut scene = default_scene_with_objects(objects);
    scene.camera.position = Vec3::new(0.0, 0.0, 1000.0);
    scene.camera.target = Vec3::new(0.0, 0.0, 2000.0);
    scene.camera.up = Vec3::Y;
    let target = OffscreenTarget::new(&ctx.device, 1920, 1080);
    let mut renderer = Renderer::new(&ctx, &scene, COLOR_FORMAT)?;
    let mut timer = GpuTimer::new(&ctx.device, &ctx.queue).expect("timestamps were checked above");
    let counts_copy = staging_buffer(&ctx.device, "ladder draw counts", renderer.buffers.draw_counts.size());
    let mut frame = 0;
    let input = FrameInput::new(scene.camera, DrawMode::Gpu);
    let uniforms = renderer.frame_uniforms(&input, target.frame_target().aspect(), true);

    let parts = |clears, compute_passes, timestamps, readback, render| {
        Some(Parts { clears, compute_passes, timestamps, readback, render })
    };
    let ladder = [
        ("renderer", None),
        ("all parts", parts(true, 2, true, true, true)),
        ("one compute pass", parts(true, 1, true, true, true)),
        ("  and no clears", parts(false, 1, true, true, true)),
        ("  and no readback", parts(false, 1, true, false, true)),
        ("  and no timestamps", parts(false, 1, false, false, true)),
        ("render pass only", parts(false, 0, false, false, true)),
        ("compute pass only", parts(false, 1, false, false, false)),
        ("empty encoder", parts(false, 0, false, false, false)),
        ("renderer again", None),
    ];
    println!("{objects} objects, CPU busy {spin_ms} ms before each frame, median of {frames} frames");
    for (name, rung) in ladder {
        let mut record_ms = Vec::new();
        for i in 0..WARMUP + frames {
            let spin_start = Instant::now();
            while spin_start.elapsed() < Duration::from_millis(spin_ms) {
                std::hint::spin_loop();
            }
            let ms = match rung {
                None => renderer.render(&ctx, &target.frame_target(), &input).record_ms,
                Some(parts) => {
                    ctx.queue.write_buffer(&renderer.buffers.frame, 0, bytemuck::bytes_of(&uniforms));
                    let start = Instant::now();
                    let command_buffer = record(&ctx, &renderer, &target, parts, &mut timer, &counts_copy, frame);
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    ctx.queue.submit([command_buffer]);
                    timer.submitted();
                    frame += 1;
                    ms
                }
            };
            ctx.wait_idle_spinning();
            renderer.collect(&ctx.device);
            timer.collect(&ctx.device);
            if i >= WARMUP {
                record_ms.push(ms);
            }
        }
        if let Some(error) = ctx.take_errors().first() {
            anyhow::bail!("{name}: {error}");
        }
        println!("{name:<22} {:>8.3} ms", median(&mut record_ms));
    }
    Ok(())
}
