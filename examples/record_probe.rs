//! Experiment behind docs/BENCHMARKS.md, "Not reached: gpu record time under 0.2 ms": renders the
//! `gpu` mode at one object count under several between-frame conditions and prints, per
//! condition, the median record time next to probes of the host CPU's state taken just before
//! the frame is recorded.
//!
//! `cargo run --release --example record_probe -- [OBJECTS] [FRAMES] [SCENARIO,...]`
//!
//! Scenarios: `seen` (default camera), `away` (a camera that sees nothing, so GPU frames are
//! short), with suffixes `+spinN` (busy-loop N ms after the GPU is idle), `+sleepN` (sleep N ms),
//! `+probe` (time the probes before recording), `+block` (wait for the GPU by blocking instead
//! of spinning).

use std::time::{Duration, Instant};

use glam::Vec3;
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::scene::file::default_scene_with_objects;
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext, Renderer};

const WARMUP: usize = 8;

struct Probe {
    compute_us: f64,
    syscall_us: f64,
    memory_us: f64,
}

/// Register-only arithmetic, 20 getpid calls, and a walk over a 4 MiB buffer touched every frame.
fn probe(buffer: &mut [u8]) -> Probe {
    let start = Instant::now();
    let mut x = 0x9e37_79b9u64;
    for i in 0..20_000u64 {
        x = x.rotate_left(5) ^ i.wrapping_mul(0x2545_f491_4f6c_dd1d);
    }
    std::hint::black_box(x);
    let compute_us = start.elapsed().as_secs_f64() * 1e6;
    let start = Instant::now();
    for _ in 0..20 {
        std::hint::black_box(std::process::id());
    }
    let syscall_us = start.elapsed().as_secs_f64() * 1e6;
    let start = Instant::now();
    let mut sum = 0u64;
    for i in (0..buffer.len()).step_by(64) {
        sum = sum.wrapping_add(buffer[i] as u64);
        buffer[i] = sum as u8;
    }
    std::hint::black_box(sum);
    let memory_us = start.elapsed().as_secs_f64() * 1e6;
    Probe { compute_us, syscall_us, memory_us }
}

fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn spin(duration: Duration) {
    let start = Instant::now();
    while start.elapsed() < duration {
        std::hint::spin_loop();
    }
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let objects: u32 = args.first().map_or(Ok(1_000_000), |a| a.parse())?;
    let frames: usize = args.get(1).map_or(Ok(40), |a| a.parse())?;
    let scenarios: Vec<String> = args
        .get(2)
        .map_or("seen,away,away+spin68,away+sleep68,seen+probe,away+probe,away+spin68+probe", |s| s.as_str())
        .split(',')
        .map(str::to_string)
        .collect();

    let ctx = GpuContext::headless(&ContextOptions::default())?;
    println!("adapter: {} ({:?}, {} {})", ctx.info.name, ctx.info.backend, ctx.info.driver, ctx.info.driver_info);
    let scene = default_scene_with_objects(objects);
    let seen = scene.camera;
    let mut away = seen;
    away.position = Vec3::new(0.0, 0.0, 1000.0);
    away.target = Vec3::new(0.0, 0.0, 2000.0);
    away.up = Vec3::Y;
    let target = OffscreenTarget::new(&ctx.device, 1920, 1080);
    let mut renderer = Renderer::new(&ctx, &scene, COLOR_FORMAT)?;
    let mut buffer = vec![1u8; 4 << 20];

    println!(
        "{:<28} {:>10} {:>10} {:>10} {:>10} {:>12} {:>12} {:>10}",
        "scenario", "record ms", "finish ms", "submit ms", "gpu ms", "compute µs", "20 syscalls", "4 MiB µs"
    );
    for scenario in &scenarios {
        let parts: Vec<&str> = scenario.split('+').collect();
        let camera = match parts[0] {
            "seen" => seen,
            "away" => away,
            other => anyhow::bail!("unknown camera {other:?}"),
        };
        let number = |prefix: &str| -> anyhow::Result<Option<u64>> {
            let Some(text) = parts.iter().find_map(|p| p.strip_prefix(prefix)) else {
                return Ok(None);
            };
            let ms =
                text.parse().map_err(|_| anyhow::anyhow!("{scenario}: +{prefix} needs milliseconds, got {text:?}"))?;
            Ok(Some(ms))
        };
        let spin_ms = number("spin")?;
        let sleep_ms = number("sleep")?;
        let with_probe = parts.contains(&"probe");
        let block = parts.contains(&"block");
        let (mut record, mut finish, mut submit, mut gpu) = (vec![], vec![], vec![], vec![]);
        let (mut compute, mut syscall, mut memory) = (vec![], vec![], vec![]);
        for i in 0..WARMUP + frames {
            let measured = i >= WARMUP;
            if let Some(ms) = spin_ms {
                spin(Duration::from_millis(ms));
            }
            if let Some(ms) = sleep_ms {
                std::thread::sleep(Duration::from_millis(ms));
            }
            if with_probe {
                let p = probe(&mut buffer);
                if measured {
                    compute.push(p.compute_us);
                    syscall.push(p.syscall_us);
                    memory.push(p.memory_us);
                }
            }
            let input = FrameInput { time: i as f32 / 60.0, ..FrameInput::new(camera, DrawMode::Gpu) };
            let stats = renderer.render(&ctx, &target.frame_target(), &input);
            if block {
                ctx.wait_idle();
            } else {
                ctx.wait_idle_spinning();
            }
            let readback = renderer.collect(&ctx.device);
            if measured {
                record.push(stats.record_ms);
                finish.push(stats.finish_ms);
                submit.push(stats.submit_ms);
                gpu.extend(readback.iter().filter_map(|r| r.gpu).map(|g| g.total()));
            }
        }
        println!(
            "{:<28} {:>10.3} {:>10.3} {:>10.3} {:>10.3} {:>12.1} {:>12.1} {:>10.1}",
            scenario,
            median(&mut record),
            median(&mut finish),
            median(&mut submit),
            median(&mut gpu),
            median(&mut compute),
            median(&mut syscall),
            median(&mut memory)
        );
    }
    Ok(())
}
