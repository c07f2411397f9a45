//! `multidraw pipelines`: every pipeline with its key, compile time and cache hit, cold vs warm
//! start-up (driver cache empty vs loaded with the cold run's data), and the first frame
//! against the steady frames.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use multidraw::frame::RendererOptions;
use multidraw::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use multidraw::gpu::DriverCacheSource;
use multidraw::output::{self, Format};
use multidraw::pipelines::cache::CompileRecord;
use multidraw::scene::Scene;
use multidraw::{ContextOptions, DrawMode, FrameInput, GpuContext, Renderer};

#[derive(Args)]
pub struct PipelinesArgs {
    /// Scene file (TOML, see docs/SCENES.md) or a glTF model (.gltf, .glb); without one, the
    /// embedded default scene.
    scene: Option<PathBuf>,
    /// Objects in the default scene (default 100,000); not for scene files.
    #[arg(long)]
    objects: Option<u32>,
    /// Skip prewarming, to see what the first frame costs without it.
    #[arg(long)]
    no_prewarm: bool,
    /// Steady frames measured after the first one.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    frames: u32,
    /// Write the results as JSON.
    #[arg(long)]
    json: Option<PathBuf>,
    #[command(flatten)]
    load: super::load::LoadArgs,
}

/// The driver's pipeline cache at a start-up.
#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "kebab-case")]
enum DriverCache {
    /// Empty.
    Cold,
    /// Loaded with the cold run's data.
    Warm,
}

impl std::fmt::Display for DriverCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(match self {
            DriverCache::Cold => "cold",
            DriverCache::Warm => "warm",
        })
    }
}

/// One start-up, cold or warm.
#[derive(Serialize)]
struct StartupRun {
    driver_cache: DriverCache,
    driver_cache_bytes_loaded: usize,
    /// Device creation, pipelines (worker threads) + scene upload, prewarm.
    startup_ms: f64,
    device_ms: f64,
    pipelines_ms: f64,
    upload_ms: f64,
    prewarm_ms: f64,
    /// Whole-frame CPU time (record + submit + wait for the GPU) of the first frame.
    first_frame_ms: f64,
    steady_frame_ms_median: f64,
    pipelines: Vec<CompileRecord>,
    #[serde(skip)]
    driver_data: Option<Vec<u8>>,
}

#[derive(Serialize)]
struct PipelinesReport {
    adapter: String,
    prewarm: bool,
    /// The cold run's pipelines (the fixed fields of the JSON shape).
    pipelines: Vec<CompileRecord>,
    startup_ms: f64,
    first_frame_ms: f64,
    steady_frame_ms_median: f64,
    warm_startup_ms: f64,
    cold: StartupRun,
    warm: StartupRun,
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn startup_run(
    options: &ContextOptions,
    scene: &Scene,
    source: DriverCacheSource,
    prewarm: bool,
    frames: u32,
) -> Result<StartupRun> {
    let start = Instant::now();
    let ctx = GpuContext::headless(&ContextOptions { driver_cache: source, ..options.clone() })?;
    let device_ms = start.elapsed().as_secs_f64() * 1e3;
    let renderer_options = RendererOptions { prewarm, ..RendererOptions::new(COLOR_FORMAT) };
    let mut renderer = Renderer::with_options(&ctx, scene, &renderer_options)?;
    let startup_ms = start.elapsed().as_secs_f64() * 1e3;

    let target = OffscreenTarget::new(&ctx.device, 1280, 720);
    let mut frame_times = Vec::new();
    for i in 0..=frames {
        let input = FrameInput { time: i as f32 / 60.0, ..FrameInput::new(scene.camera, DrawMode::Gpu) };
        let frame_start = Instant::now();
        renderer.render(&ctx, &target.frame_target(), &input);
        ctx.wait_idle();
        frame_times.push(frame_start.elapsed().as_secs_f64() * 1e3);
        renderer.collect(&ctx.device);
    }
    if let Some(error) = ctx.take_errors().into_iter().next() {
        anyhow::bail!("the GPU reported an error: {error}");
    }
    let first_frame_ms = frame_times[0];
    let pipelines = ctx.pipelines.records();
    Ok(StartupRun {
        driver_cache: if ctx.driver_cache_loaded > 0 { DriverCache::Warm } else { DriverCache::Cold },
        driver_cache_bytes_loaded: ctx.driver_cache_loaded,
        startup_ms,
        device_ms,
        pipelines_ms: renderer.startup.pipelines_ms,
        upload_ms: renderer.startup.upload_ms,
        prewarm_ms: renderer.startup.prewarm_ms,
        first_frame_ms,
        steady_frame_ms_median: median(&mut frame_times[1..]),
        pipelines,
        driver_data: ctx.driver_cache_data(),
    })
}

pub fn run(options: &ContextOptions, args: &PipelinesArgs) -> Result<()> {
    if let Some(path) = &args.json {
        output::check(path, Format::Any)?;
    }
    let scene = super::load_scene(
        args.scene.as_deref(),
        args.objects,
        super::load::adapter_limits(options).as_ref(),
        &args.load,
    )?;
    let prewarm = !args.no_prewarm;
    let cold = startup_run(options, &scene, DriverCacheSource::Empty, prewarm, args.frames)?;
    let warm_source = match &cold.driver_data {
        Some(data) => DriverCacheSource::Data(Arc::new(data.clone())),
        None => DriverCacheSource::Off,
    };
    let warm = startup_run(options, &scene, warm_source, prewarm, args.frames)?;
    let adapter = GpuContext::headless(&ContextOptions { driver_cache: DriverCacheSource::Off, ..options.clone() })
        .map(|ctx| {
            format!("{} ({:?}, {} {})", ctx.info.name, ctx.info.backend, ctx.info.driver, ctx.info.driver_info)
        })?;

    println!("adapter: {adapter}");
    println!(
        "prewarm: {}   scene: {}, {} objects\n",
        if prewarm { "on" } else { "off" },
        multidraw::text::display_name(&scene.name),
        scene.objects.len()
    );
    println!("{:<20} {:<8} {:<18} {:>12} {:>12} {:>10}", "pipeline", "kind", "key", "cold ms", "warm ms", "memory hit");
    for record in &cold.pipelines {
        let warm_ms =
            warm.pipelines.iter().find(|w| w.label == record.label && w.kind == record.kind).map(|w| w.compile_ms);
        println!(
            "{:<20} {:<8} {:<18} {:>12.3} {:>12} {:>10}",
            record.label,
            record.kind,
            record.key,
            record.compile_ms,
            warm_ms.map_or("-".into(), |ms| format!("{ms:.3}")),
            if record.cache_hit { "yes" } else { "no" }
        );
    }
    println!();
    for run in [&cold, &warm] {
        println!(
            "{} start-up: {:.1} ms (device {:.1}, pipelines {:.1} in parallel with upload {:.1}, prewarm {:.1}); driver cache loaded: {} bytes",
            run.driver_cache,
            run.startup_ms,
            run.device_ms,
            run.pipelines_ms,
            run.upload_ms,
            run.prewarm_ms,
            run.driver_cache_bytes_loaded
        );
        println!(
            "{} first frame: {:.3} ms vs median of the next {} frames {:.3} ms ({:.2}x)",
            run.driver_cache,
            run.first_frame_ms,
            args.frames,
            run.steady_frame_ms_median,
            run.first_frame_ms / run.steady_frame_ms_median.max(1e-9)
        );
    }
    if let Some(path) = &args.json {
        let report = PipelinesReport {
            adapter,
            prewarm,
            pipelines: cold.pipelines.clone(),
            startup_ms: cold.startup_ms,
            first_frame_ms: cold.first_frame_ms,
            steady_frame_ms_median: cold.steady_frame_ms_median,
            warm_startup_ms: warm.startup_ms,
            cold,
            warm,
        };
        output::write(path, Format::Any, serde_json::to_string_pretty(&report)?.as_bytes())?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
