//! Criterion: CPU time to record one frame (encoder creation to `finish`) per mode at 1k, 10k
//! and 100k objects on whatever adapter is present (lavapipe in CI). The GPU work of each
//! frame is waited for outside the measured time.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::scene::generator::{stress_scene, StressParams};
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext, Renderer};

fn record(c: &mut Criterion) {
    let ctx = GpuContext::headless(&ContextOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let target = OffscreenTarget::new(&ctx.device, 320, 180);
    let mut group = c.benchmark_group("record");
    group.sample_size(20).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(3));
    for objects in [1_000, 10_000, 100_000] {
        for mode in [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject, DrawMode::Cpu, DrawMode::Bundle] {
            let scene = stress_scene(&StressParams { objects, seed: 1, animated: mode != DrawMode::Bundle });
            let mut renderer = Renderer::new(&ctx, &scene, COLOR_FORMAT).expect("renderer");
            group.bench_with_input(BenchmarkId::new(mode.name(), objects), &objects, |b, _| {
                let mut frame = 0u32;
                b.iter_custom(|iterations| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iterations {
                        let input = FrameInput { time: frame as f32 / 60.0, ..FrameInput::new(scene.camera, mode) };
                        frame += 1;
                        let stats = renderer.render(&ctx, &target.frame_target(), &input);
                        total += Duration::from_secs_f64((stats.record_ms + stats.cpu_cull_ms) / 1e3);
                        ctx.wait_idle();
                        renderer.collect(&ctx.device);
                    }
                    total
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, record);
criterion_main!(benches);
