//! Experiment behind docs/BENCHMARKS.md, "Not reached: gpu record time under 0.2 ms": what each part
//! of the gpu mode's frame costs to record when the CPU has been busy elsewhere for a while.
//!
//! Before every frame the thread spins for SPIN_MS (default 68, in ms: a 1,000,000-object GPU
//! frame on the H200 when the experiment was made, docs/BENCHMARKS.md § "Record-ladder spin time")
//! with a camera that sees nothing, so the GPU frames stay short and only the host CPU's
//! state differs from a warm run (SPIN_MS 0). Each rung records the frame with some passes left
//! out, through the passes' own `record` functions, and reports the median
//! encoder-creation-to-`finish` time; "renderer" is the engine's own `Renderer::render`. Frames
//! with parts left out draw nonsense; only their timing matters.
//!
//! `cargo run --release --example record_ladder -- [OBJECTS] [FRAMES] [SPIN_MS]`

use std::time::{Duration, Instant};

use glam::Vec3;
use multidraw::gpu::commands::FrameEncoder;
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu::timer::GpuTimer;
use multidraw::gpu_scene::ViewBuffers;
use multidraw::passes::main::indirect::IndirectDraws;
use multidraw::passes::main::Draws;
use multidraw::passes::Phase;
use multidraw::scene::file::default_scene_with_objects;
use multidraw::{ContextOptions, Detail, DrawMode, FrameInput, GpuContext, Renderer};

const WARMUP: usize = 5;

/// Which of the gpu mode's passes a rung records, each through its own `record`.
#[derive(Clone, Copy)]
struct Parts {
    /// The cull and build passes (with the cull pass's counter clears).
    compute: bool,
    /// Timestamps on every pass, their resolve and its copy.
    timestamps: bool,
    /// The main render pass with its multi-draws.
    render: bool,
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Records frame `frame` with `parts`, driving the renderer's own passes as its gpu-mode plan
/// does, with the parts not asked for left out.
fn record(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    target: &OffscreenTarget,
    parts: Parts,
    view: &ViewBuffers,
    timer: &mut GpuTimer,
    frame: u64,
) -> wgpu::CommandBuffer {
    let plan = *renderer.plan(DrawMode::Gpu);
    let mut encoder = FrameEncoder::new(&ctx.device, "frame", parts.timestamps.then_some(timer));
    if let (true, Some(output)) = (parts.compute, plan.cull) {
        let hiz = &renderer.buffers.hiz_placeholder;
        renderer.cull.record(
            &mut encoder,
            &renderer.buffers,
            view,
            output,
            Phase::Only,
            hiz,
            multidraw::passes::cull::NAME,
        );
        let occluders = renderer.lists_occluders(DrawMode::Gpu);
        renderer.build.record(
            &mut encoder,
            &renderer.buffers,
            view,
            Phase::Only,
            multidraw::passes::build::NAME,
            occluders,
        );
    }
    if let (true, Some(indirect)) = (parts.render, plan.indirect()) {
        let indirect = IndirectDraws { occluders: renderer.lists_occluders(DrawMode::Gpu), ..indirect };
        let draws = Draws::Indirect(indirect, None);
        let (buffers, prepared) = (&renderer.buffers, &renderer.prepared);
        renderer.main.record(
            &mut encoder,
            &target.frame_target(),
            None,
            buffers,
            view,
            prepared,
            draws,
            Phase::Only,
            false,
        );
    }
    let FrameEncoder { mut encoder, timer, .. } = encoder;
    if let Some(timer) = timer {
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
    // Forward: the ladder records the main pass alone, which a deferred renderer's would draw
    // into its views' ids targets.
    let options =
        multidraw::frame::RendererOptions { deferred: false, ..multidraw::frame::RendererOptions::new(COLOR_FORMAT) };
    let mut renderer = Renderer::with_options(&ctx, &scene, &options)?;
    let mut timer = GpuTimer::new(&ctx.device, &ctx.queue).expect("timestamps were checked above");
    let mut frame = 0;
    // One culling phase and no compute rasteriser, as the hand-driven rungs record it.
    let detail = Detail { occlusion: false, soft: false, ..Detail::default() };
    let input = FrameInput { detail, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
    let uniforms = renderer.frame_uniforms(&input, target.width, target.height).to_bytes();
    // The rungs' own view: its uniforms and visibility bits, as the renderer keeps per view.
    let view = ViewBuffers::new(&ctx.device, &renderer.layouts, &renderer.buffers);

    let parts = |compute, timestamps, render| Some(Parts { compute, timestamps, render });
    let ladder = [
        ("renderer", None),
        ("all passes", parts(true, true, true)),
        ("  and no timestamps", parts(true, false, true)),
        ("render pass only", parts(false, false, true)),
        ("compute passes only", parts(true, false, false)),
        ("empty encoder", parts(false, false, false)),
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
                    ctx.queue.write_buffer(&view.frame, 0, &uniforms);
                    let start = Instant::now();
                    let command_buffer = record(&ctx, &mut renderer, &target, parts, &view, &mut timer, frame);
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
