//! `multidraw pipelines`: every pipeline with its key, compile time and cache hit, cold vs warm
//! start-up (driver cache empty vs loaded with the cold run's data), and the first frame
//! against the steady frames.
//!
//! A request served from the in-memory cache compiled nothing, so its row reads "cached". The
//! defaults (10,000 objects, 30 steady frames, two start-ups) are sized for a CPU adapter, where
//! a frame of the default scene's 100,000 objects takes seconds (README, Pipelines, gives what a
//! run costs). Where the driver's cache data holds no pipeline (lavapipe's is a 96-byte
//! header), the report says why warm need not beat cold ([`warm_note`]).

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

/// Objects in the default scene here: what start-up and first frames cost shows at any count,
/// and the default scene's 100,000 make each of the two runs' frames take seconds on lavapipe.
const DEFAULT_OBJECTS: u32 = 10_000;

#[derive(Args)]
pub struct PipelinesArgs {
    /// Scene file (TOML, see docs/SCENES.md) or a glTF model (.gltf, .glb); without one, the
    /// embedded default scene.
    scene: Option<PathBuf>,
    /// Objects in the default scene [default: 10000, so that both start-ups and their frames
    /// take a few minutes on a CPU adapter]; not for scene files.
    #[arg(long)]
    objects: Option<u32>,
    /// Skip prewarming, to see what the first frame costs without it.
    #[arg(long)]
    no_prewarm: bool,
    /// Steady frames measured after the first one.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
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
    let objects = args.objects.or(args.scene.is_none().then_some(DEFAULT_OBJECTS));
    let scene =
        super::load_scene(args.scene.as_deref(), objects, super::load::adapter_limits(options).as_ref(), &args.load)?;
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
    print!("{}", pipeline_table(&cold.pipelines, &warm.pipelines));
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
    if let Some(note) = warm_note(warm.driver_cache_bytes_loaded, cold.driver_data.is_some()) {
        println!("\nnote: {note}");
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

/// Driver cache data this small is a header with no pipeline in it (lavapipe's is 96 bytes).
const HEADER_ONLY_BYTES: usize = 1024;

/// Why the warm start-up may not be faster than the cold one, when the driver's cache gave it
/// nothing to start from: `loaded`, the bytes the warm run's cache was made with; `saved`,
/// whether the cold run's driver had a cache to save at all.
fn warm_note(loaded: usize, saved: bool) -> Option<String> {
    if !saved {
        return Some(
            "this adapter has no driver pipeline cache (PIPELINE_CACHE), so the warm run starts as cold as the \
             cold one; their difference is noise"
                .into(),
        );
    }
    (loaded < HEADER_ONLY_BYTES).then(|| {
        format!(
            "the driver's pipeline cache data is {loaded} bytes, a header without pipelines: lavapipe compiles a \
             pipeline on its first use (in prewarm, or in the first frame without it) and keeps the result in Mesa's \
             own disk cache (MESA_SHADER_CACHE_DIR, by default ~/.cache/mesa_shader_cache), which both runs read. The \
             cold run is cold only while that cache is empty (the first run on a machine, or MESA_SHADER_CACHE_DIR \
             naming an empty directory), and the warm run is then warm through it; after that both start warm, their \
             difference is noise, and warm can come out slower than cold"
        )
    })
}

/// A compile time as the table shows it: a request served from the in-memory cache compiled
/// nothing, so it reads "cached" (its time was a lookup, or a wait for another thread's
/// compilation, already counted on that row).
fn compile_cell(record: &CompileRecord) -> String {
    if record.cache_hit {
        "cached".into()
    } else {
        format!("{:.3}", record.compile_ms)
    }
}

/// One row per request of the cold run, its warm time beside it, every column as wide as its
/// widest cell. A cold compilation is paired with the warm run's compilation of the same
/// label and kind (the n-th with the n-th: keys hold per-device layout ids, so they differ
/// between the runs); which of two concurrent requests compiles is a race, so hits pair with
/// nothing and read "cached" in both runs.
fn pipeline_table(cold: &[CompileRecord], warm: &[CompileRecord]) -> String {
    let mut warm_used = vec![false; warm.len()];
    let mut rows = vec![["pipeline".to_string(), "kind".into(), "key".into(), "cold ms".into(), "warm ms".into()]];
    for record in cold {
        let warm_cell = if record.cache_hit {
            "cached".to_string()
        } else {
            let pair = warm
                .iter()
                .enumerate()
                .position(|(i, w)| !warm_used[i] && !w.cache_hit && w.label == record.label && w.kind == record.kind);
            pair.map_or("-".into(), |i| {
                warm_used[i] = true;
                compile_cell(&warm[i])
            })
        };
        rows.push([record.label.clone(), record.kind.into(), record.key.clone(), compile_cell(record), warm_cell]);
    }
    let width = |column: usize| rows.iter().map(|row| row[column].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..5).map(width).collect();
    let mut out = String::new();
    for row in &rows {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}  {:>w4$}",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4]
        );
        out += line.trim_end();
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(label: &str, key: &str, ms: f64, hit: bool) -> CompileRecord {
        CompileRecord { label: label.into(), key: key.into(), compile_ms: ms, cache_hit: hit, kind: "render" }
    }

    #[test]
    fn a_header_only_driver_cache_is_explained() {
        assert!(warm_note(96, true).is_some_and(|n| n.contains("96 bytes") && n.contains("MESA_SHADER_CACHE_DIR")));
        assert!(warm_note(0, false).is_some_and(|n| n.contains("no driver pipeline cache")));
        assert_eq!(warm_note(300_000, true), None, "a cache with pipelines in it needs no note");
    }

    #[test]
    fn the_table_aligns_long_keys_and_shows_hits_as_cached() {
        let cold = [
            record("main opaque", "00000000000000aa", 120.0, false),
            record("a much longer pipeline label", "key-longer-than-eighteen-characters", 80.0, false),
            record("main opaque", "00000000000000aa", 119.0, true),
        ];
        let warm = [
            record("main opaque", "00000000000000bb", 3.0, true),
            record("main opaque", "00000000000000bb", 4.5, false),
            record("a much longer pipeline label", "zz", 2.0, false),
        ];
        let table = pipeline_table(&cold, &warm);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        // Every row's kind column starts at the same place, however long the label.
        let kind_at: Vec<usize> = lines.iter().map(|l| l.find("render").or(l.find("kind")).unwrap()).collect();
        assert!(kind_at.windows(2).all(|w| w[0] == w[1]), "{table}");
        // Right-aligned columns end together.
        let ends: Vec<usize> = lines.iter().map(|l| l.len()).collect();
        assert!(ends.windows(2).all(|w| w[0] == w[1]), "{table}");
        fn times(line: &str) -> Vec<&str> {
            line.split_whitespace().rev().take(2).collect()
        }
        assert_eq!(times(lines[1]), ["4.500", "120.000"], "paired with the warm compilation: {table}");
        assert_eq!(times(lines[2]), ["2.000", "80.000"], "{table}");
        assert_eq!(times(lines[3]), ["cached", "cached"], "a hit compiled nothing: {table}");
    }
}
