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
use multidraw::gpu::layout::group;
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu::types::DRAW_ARGS_SIZE;
use multidraw::scene::file::default_scene_with_objects;
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext, Renderer};

const WARMUP: usize = 5;
/// Timestamp slots: cull pass 0–1, build pass 2–3, main pass 4–5.
const QUERIES: u32 = 6;

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

fn record(
    ctx: &GpuContext,
    renderer: &Renderer,
    target: &OffscreenTarget,
    parts: Parts,
    readback: &Readback,
) -> wgpu::CommandBuffer {
    let buffers = &renderer.buffers;
    let mut encoder = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
    if parts.clears {
        encoder.clear_buffer(&buffers.batch_counts, 0, None);
        encoder.clear_buffer(&buffers.draw_counts, 0, None);
    }
    let compute_timestamps = |first: u32| {
        parts.timestamps.then(|| wgpu::ComputePassTimestampWrites {
            query_set: &readback.queries,
            beginning_of_pass_write_index: Some(first),
            end_of_pass_write_index: Some(first + 1),
        })
    };
    let (cull_x, cull_y, _) = dispatch_size(buffers.object_count, renderer.cull.workgroup_size);
    let (build_x, _, _) = dispatch_size(buffers.batch_count, renderer.cull.workgroup_size);
    if parts.compute_passes >= 1 {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("cull"),
            timestamp_writes: compute_timestamps(0),
        });
        pass.set_pipeline(&renderer.cull.cull);
        pass.set_bind_group(group::FRAME, &buffers.frame_bind_group, &[]);
        pass.set_bind_group(group::CULL_IO, &buffers.cull_bind_group, &[]);
        pass.dispatch_workgroups(cull_x, cull_y, 1);
        if parts.compute_passes == 1 {
            pass.set_pipeline(&renderer.cull.build);
            pass.dispatch_workgroups(build_x, 1, 1);
        }
    }
    if parts.compute_passes == 2 {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some("build"),
            timestamp_writes: compute_timestamps(2),
        });
        pass.set_pipeline(&renderer.cull.build);
        pass.set_bind_group(group::FRAME, &buffers.frame_bind_group, &[]);
        pass.set_bind_group(group::CULL_IO, &buffers.cull_bind_group, &[]);
        pass.dispatch_workgroups(build_x, 1, 1);
    }
    if parts.readback {
        encoder.copy_buffer_to_buffer(&buffers.draw_counts, 0, &readback.counts, 0, buffers.draw_counts.size());
    }
    if parts.render {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("main"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &target.color_view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Clear(wgpu::Color::BLACK), store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &target.depth_view,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
            timestamp_writes: parts.timestamps.then_some(wgpu::RenderPassTimestampWrites {
                query_set: &readback.queries,
                beginning_of_pass_write_index: Some(4),
                end_of_pass_write_index: Some(5),
            }),
            occlusion_query_set: None,
        });
        pass.set_bind_group(group::FRAME, &buffers.frame_bind_group, &[]);
        pass.set_bind_group(group::SCENE, &buffers.scene_bind_group, &[]);
        pass.set_bind_group(group::TEXTURES, &buffers.texture_bind_group, &[]);
        pass.set_vertex_buffer(0, buffers.vertices.slice(..));
        pass.set_index_buffer(buffers.indices.slice(..), wgpu::IndexFormat::Uint32);
        for (variant, range) in renderer.prepared.variants.iter().enumerate().filter(|(_, r)| r.object_count > 0) {
            pass.set_pipeline(renderer.main.pipeline(variant));
            pass.multi_draw_indexed_indirect_count(
                &buffers.draws,
                range.first_batch as u64 * DRAW_ARGS_SIZE,
                &buffers.draw_counts,
                variant as u64 * 4,
                range.batch_count,
            );
        }
    }
    if parts.readback && parts.timestamps {
        encoder.resolve_query_set(&readback.queries, 0..QUERIES, &readback.resolve, 0);
        encoder.copy_buffer_to_buffer(&readback.resolve, 0, &readback.times, 0, readback.resolve.size());
    }
    encoder.finish()
}

/// The rungs' own query set and copy destinations (never mapped: only the copies' cost counts).
struct Readback {
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    times: wgpu::Buffer,
    counts: wgpu::Buffer,
}

impl Readback {
    fn new(device: &wgpu::Device, counts_size: u64) -> Self {
        let size = QUERIES as u64 * wgpu::QUERY_SIZE as u64;
        let buffer = |label, size, usage| {
            device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size, usage, mapped_at_creation: false })
        };
        let readable = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
        Self {
            queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                label: Some("ladder timestamps"),
                ty: wgpu::QueryType::Timestamp,
                count: QUERIES,
            }),
            resolve: buffer("ladder resolve", size, wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC),
            times: buffer("ladder times", size, readable),
            counts: buffer("ladder counts", counts_size, readable),
        }
    }
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
    let readback = Readback::new(&ctx.device, renderer.buffers.draw_counts.size());
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
                    let command_buffer = record(&ctx, &renderer, &target, parts, &readback);
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    ctx.queue.submit([command_buffer]);
                    ms
                }
            };
            ctx.wait_idle_spinning();
            renderer.collect(&ctx.device);
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
