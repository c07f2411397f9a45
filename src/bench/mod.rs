//! `multidraw bench`: every requested way of drawing at every requested object count, the
//! same frames (same camera, same animation times) for each, measured after a warm-up.
//!
//! CPU times come from the process (`Instant`), GPU times from timestamp queries, and every
//! frame also has a wall-clock time, from before its recording until the CPU sees its GPU work
//! done. Each frame is waited for before the next, so CPU times measure recording and
//! submission alone, not queueing behind the GPU. Where the timestamps miss work
//! (`report::timestamps_short`: lavapipe's compute passes with `MULTIDRAW_TIMESTAMP_FLUSH=off`),
//! the wall clock is the truth, and the ratios (`table`) use it.
//!
//! Set-up first builds every object count's renderer and times one frame of each row, so the
//! caller hears how long the measured frames will take before they start, and the progress
//! counts time, not frames ([`BenchProgress`], `eta`).
//!
//! With puffin on (`--puffin`, `--puffin-http`), each measured frame is one puffin frame: a
//! `frame` scope tagged with the frame, mode and object count, and the frame's passes on the
//! GPU queue lane at their calibrated times. Set-up (renderer creation, scene swaps, clock
//! calibration) and warm-up frames run with scopes off, so a capture holds measured frames
//! only.

pub mod chart;
mod eta;
pub mod report;
pub mod soak;
pub mod table;

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::frame::{Detail, DrawMode, FrameInput, FrameReadback, Renderer, RendererError};
use crate::gpu::target::{OffscreenTarget, COLOR_FORMAT};
use crate::gpu::timer::GpuPassTimes;
use crate::gpu::GpuContext;
use crate::gpu_scene::{check_object_count, UploadError};
use crate::live::churn::ChurnScene;
use crate::live::LiveSync;
use crate::profiling::{GpuLane, FRAME_SCOPE};
use eta::Eta;
use report::{AdapterJson, BenchReport, GpuMs, Row, Stat};

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    pub objects: Vec<u32>,
    pub modes: Vec<DrawMode>,
    pub frames: u32,
    pub warmup: u32,
    pub width: u32,
    pub height: u32,
    /// Animate the scene (bundle rows are always static).
    pub animated: bool,
    /// How to wait for each frame's GPU work.
    pub gpu_wait: GpuWait,
    /// A scene file's scene, run at its own object count; `None` sweeps the embedded default
    /// scene over `objects`.
    pub scene: Option<crate::scene::Scene>,
    /// Level of detail, size and occlusion culling of every row.
    pub detail: Detail,
    /// Run every count and mode twice: at full detail ([`Detail::FULL`]: LOD, size and
    /// occlusion culling off) and with `detail`, and print the GPU-time ratio.
    pub compare_detail: bool,
    /// Objects replaced per frame in a live copy of the scene (removed, added elsewhere, and
    /// as many more moved; `live::churn`); 0: the scene does not change.
    pub churn: usize,
    /// Views side by side in each frame (`View::side_by_side`), each culled and drawn on its
    /// own; 1: the scene's camera alone.
    pub views: u32,
    /// Degrees each further view is turned about the vertical axis.
    pub view_turn: f32,
    /// The sun's shadow cascades per view (`FrameInput::shadows`); 0: no shadows.
    pub shadows: u32,
}

impl BenchConfig {
    /// The views of a frame of `input`: [`BenchConfig::views`] side by side (one: its camera
    /// alone).
    fn frame_views(&self, input: &FrameInput) -> Vec<crate::frame::View> {
        crate::frame::View::side_by_side(input, self.views, self.view_turn, self.width, self.height)
    }
}

/// The object counts `multidraw bench` sweeps by default.
pub const DEFAULT_OBJECT_COUNTS: [u32; 3] = [1_000, 10_000, 100_000];
/// The ways of drawing `multidraw bench` runs by default.
pub const DEFAULT_MODES: [DrawMode; 3] = [DrawMode::Gpu, DrawMode::Cpu, DrawMode::Bundle];

impl Default for BenchConfig {
    fn default() -> Self {
        Self {
            objects: DEFAULT_OBJECT_COUNTS.to_vec(),
            modes: DEFAULT_MODES.to_vec(),
            frames: 30,
            warmup: 5,
            width: 1280,
            height: 720,
            animated: true,
            gpu_wait: GpuWait::Block,
            scene: None,
            detail: Detail::default(),
            compare_detail: false,
            churn: 0,
            views: 1,
            view_turn: 90.0,
            shadows: 0,
        }
    }
}

/// How the benchmark waits for each frame's GPU work before the next frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "app", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "app", value(rename_all = "kebab-case"))]
pub enum GpuWait {
    /// Poll the device, keeping the thread busy between polls (`GpuContext::wait_idle_spinning`).
    Spin,
    /// Sleep in the driver until the GPU is done.
    Block,
}

impl GpuWait {
    /// Spin on GPUs; block on CPU adapters such as lavapipe, where spinning would steal a core
    /// from the rasteriser.
    pub fn for_adapter(device_type: wgpu::DeviceType) -> Self {
        if device_type == wgpu::DeviceType::Cpu {
            GpuWait::Block
        } else {
            GpuWait::Spin
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error(transparent)]
    Renderer(#[from] RendererError),
    #[error(transparent)]
    Upload(#[from] UploadError),
    #[error("the GPU reported an error during the {mode} run at {objects} objects: {message}")]
    Gpu { mode: DrawMode, objects: u32, message: String },
    #[error(transparent)]
    SoakPlan(#[from] soak::SoakPlanError),
    #[error(transparent)]
    Live(#[from] crate::live::LiveError),
    #[error(
        "--churn {churn}: the scene has {objects} objects, and each frame's churn removes that many, adds as many \
         elsewhere and moves as many more, so it may be at most the object count: give --churn {objects} or less"
    )]
    Churn { churn: usize, objects: u64 },
}

/// Refuses a churn larger than the scene it churns (it would grow the scene to the churn's
/// size, and a huge one would allocate until memory runs out), before any work.
pub fn check_churn(churn: usize, objects: u64) -> Result<(), BenchError> {
    if churn as u64 > objects {
        return Err(BenchError::Churn { churn, objects });
    }
    Ok(())
}

/// What the benchmark tells its caller while it runs: the set-up steps, an estimate of the
/// measured work once set-up has timed one frame of every row, and the work done.
pub trait BenchProgress {
    /// A set-up step starts (building a scene, timing one frame of each row).
    fn step(&mut self, what: &str);
    /// Set-up is over: the measured frames, `frames` of them, should take about `seconds` on
    /// this adapter.
    fn estimate(&mut self, seconds: f64, frames: u64);
    /// The share of the measured frames' time that has passed, and the seconds left
    /// (`bench::eta`); `label` says what runs now.
    fn work(&mut self, share: f64, seconds_left: f64, label: &str);
}

/// A caller that wants no progress.
pub struct NoProgress;

impl BenchProgress for NoProgress {
    fn step(&mut self, _: &str) {}
    fn estimate(&mut self, _: f64, _: u64) {}
    fn work(&mut self, _: f64, _: f64, _: &str) {}
}

/// The measured frames and warm-up frames per row `multidraw bench` runs by default: fewer on
/// a CPU adapter, whose frames are hundreds of times longer, so that `make run` takes minutes
/// there, not half an hour (docs/BENCHMARKS.md gives what it costs).
pub fn default_frames(device_type: wgpu::DeviceType) -> (u32, u32) {
    if device_type == wgpu::DeviceType::Cpu {
        (8, 2)
    } else {
        (30, 5)
    }
}

/// One object count's scenes and renderer, made during set-up and kept for its rows.
struct CountRun {
    animated_scene: crate::scene::Scene,
    static_scene: crate::scene::Scene,
    /// A churning scene is a live copy, static but for the churn; with its link to the renderer.
    churning: Option<(ChurnScene, LiveSync)>,
    renderer: Renderer,
    /// Which of the two scenes the renderer holds.
    scene_is_animated: bool,
}

impl CountRun {
    fn new(ctx: &GpuContext, config: &BenchConfig, base: crate::scene::Scene) -> Result<Self, BenchError> {
        let mut animated_scene = base.clone();
        animated_scene.set_animated(base.animated && config.animated);
        let mut static_scene = base;
        static_scene.set_animated(false);
        let churning = match config.churn {
            0 => None,
            _ => Some((ChurnScene::from_scene(&static_scene, 7)?, LiveSync::new())),
        };
        if churning.is_some() {
            animated_scene.set_animated(false);
        }
        let first = churning.as_ref().map(|(churn, _)| churn.live.to_scene());
        let renderer = Renderer::new(ctx, first.as_ref().unwrap_or(&animated_scene), COLOR_FORMAT)?;
        let scene_is_animated = animated_scene.animated;
        Ok(Self { animated_scene, static_scene, churning, renderer, scene_is_animated })
    }

    /// Gives the renderer the scene `mode` draws (bundles replay a static one); whether it moves.
    fn prepare(&mut self, ctx: &GpuContext, mode: DrawMode) -> Result<bool, BenchError> {
        let animated = self.animated_scene.animated && mode != DrawMode::Bundle;
        if animated != self.scene_is_animated {
            self.renderer.set_scene(ctx, if animated { &self.animated_scene } else { &self.static_scene })?;
            self.scene_is_animated = animated;
        }
        Ok(animated)
    }

    /// Renders one frame of `mode` at `detail` (no churn) and waits for it: set-up's timing,
    /// in seconds.
    fn timed_frame(
        &mut self,
        ctx: &GpuContext,
        target: &OffscreenTarget,
        config: &BenchConfig,
        mode: DrawMode,
        detail: Detail,
    ) -> Result<f64, BenchError> {
        self.prepare(ctx, mode)?;
        let input =
            FrameInput { detail, ..FrameInput::new(self.animated_scene.camera, mode) }.with_shadows(config.shadows);
        let views = config.frame_views(&input);
        let start = Instant::now();
        self.renderer.render_views(ctx, &target.frame_target(), &input, &views);
        wait(ctx, config.gpu_wait);
        let seconds = start.elapsed().as_secs_f64();
        let _ = self.renderer.collect(&ctx.device);
        if let Some(message) = ctx.take_errors().into_iter().next() {
            return Err(BenchError::Gpu { mode, objects: self.renderer.buffers.object_count, message });
        }
        Ok(seconds)
    }
}

fn wait(ctx: &GpuContext, how: GpuWait) {
    match how {
        GpuWait::Spin => ctx.wait_idle_spinning(),
        GpuWait::Block => ctx.wait_idle(),
    }
}

pub fn run(
    ctx: &GpuContext,
    config: &BenchConfig,
    progress: &mut dyn BenchProgress,
) -> Result<BenchReport, BenchError> {
    let counts: Vec<Option<u32>> = match &config.scene {
        Some(_) => vec![None],
        None => config.objects.iter().copied().map(Some).collect(),
    };
    for &n in counts.iter().flatten() {
        check_object_count(n as u64, &ctx.limits)?;
        check_churn(config.churn, n.into())?;
    }
    if let Some(scene) = &config.scene {
        check_churn(config.churn, scene.objects.len() as u64)?;
    }
    let details = if config.compare_detail { vec![Detail::FULL, config.detail] } else { vec![config.detail] };
    let mut rows = Vec::new();
    let target = OffscreenTarget::new(&ctx.device, config.width, config.height);
    let mut notes = Vec::new();
    // Scopes stay off outside measured frames (set-up, warm-up); see the module documentation.
    let profiling = puffin::are_scopes_on();
    puffin::set_scopes_on(false);
    let mut lane = if profiling { GpuLane::new(ctx) } else { GpuLane::off() };
    if let (true, Some(note)) = (profiling, lane.note()) {
        notes.push(note.to_string());
    }
    if let Some(ms) = lane.uncertainty_ms() {
        notes.push(format!("puffin: GPU clock calibrated against the CPU clock to within ±{:.3} ms", ms));
    }
    if config.modes.contains(&DrawMode::Bundle) {
        notes.push(
            "bundle replays draws recorded once: valid only for a static scene, so its rows run with animation off \
             (with objects moving it would draw a stale visible set)"
                .into(),
        );
    }
    if !ctx.has_count_draws() && config.modes.iter().any(|m| matches!(m, DrawMode::Gpu | DrawMode::GpuPerObject)) {
        notes.push(
            "no MULTI_DRAW_INDIRECT_COUNT on this adapter: gpu modes draw every slot without a count buffer".into(),
        );
    }
    // Set-up: every count's scene and renderer, then one frame of each of its rows, timed, to
    // weigh the rows' frames for the progress and the estimate. Each timed frame follows an
    // untimed one of the same row: a renderer's first frame pays for first use, and the first
    // after another mode's for the switch (docs/BENCHMARKS.md § "Bench set-up: the first frame
    // after another mode's"). The rows' own warm-up frames come on top.
    let mut runs = Vec::new();
    let mut frame_seconds = Vec::new();
    let mut row_scenes = Vec::new();
    for (scene_index, &count) in counts.iter().enumerate() {
        let base = match (&config.scene, count) {
            (Some(scene), _) => scene.clone(),
            (None, Some(objects)) => crate::scene::file::default_scene_with_objects(objects),
            (None, None) => unreachable!("the default scene always has a count"),
        };
        progress.step(&format!("building {} ({} objects)", crate::text::display_name(&base.name), base.objects.len()));
        let mut run = CountRun::new(ctx, config, base)?;
        progress.step(&format!("timing one frame of each row at {} objects", run.renderer.buffers.object_count));
        for &detail in &details {
            for &mode in &config.modes {
                run.timed_frame(ctx, &target, config, mode, detail)?;
                frame_seconds.push(run.timed_frame(ctx, &target, config, mode, detail)?);
                row_scenes.push(scene_index);
            }
        }
        runs.push(run);
    }
    let frames_per_row = config.frames + config.warmup;
    let mut eta = Eta::new(frame_seconds, row_scenes, frames_per_row);
    progress.estimate(eta.left(0, 0, 0.0), eta.frame_estimates.len() as u64 * frames_per_row as u64);
    progress.work(0.0, eta.left(0, 0, 0.0), "");
    let mut row_index = 0;
    for run in &mut runs {
        let objects = run.churning.as_ref().map_or(run.renderer.buffers.object_count, |(c, _)| c.object_count() as u32);
        for &detail in &details {
            for &mode in &config.modes {
                let animated = run.prepare(ctx, mode)?;
                let label = format!("{mode} at {objects} objects, {}", describe(&detail));
                // Every row churns the same frames from the same start, so rows compare frame by frame.
                let churn = run.churning.as_mut().map(|(scene, sync)| {
                    scene.restart();
                    *sync = LiveSync::new();
                    (scene, sync, config.churn)
                });
                let setup = RowSetup { mode, camera: run.animated_scene.camera, animated, detail, profiling, churn };
                lane.recalibrate(ctx);
                let row_start = Instant::now();
                let row = run_row(ctx, &mut run.renderer, &mut lane, &target, config, setup, &mut |i| {
                    let seconds = row_start.elapsed().as_secs_f64();
                    if i == 1 {
                        eta.first_frame_done(row_index, seconds);
                    }
                    let left = eta.left(row_index, i, seconds);
                    progress.work(eta.share(left), left, &label)
                });
                puffin::set_scopes_on(false);
                let row = row?;
                eta.finished(row_index, row_start.elapsed().as_secs_f64());
                row_index += 1;
                let left = eta.left(row_index, 0, 0.0);
                progress.work(eta.share(left), left, &label);
                rows.push(row);
            }
        }
    }
    puffin::set_scopes_on(profiling);
    Ok(BenchReport {
        adapter: AdapterJson {
            name: ctx.info.name.clone(),
            backend: format!("{:?}", ctx.info.backend),
            device_type: format!("{:?}", ctx.info.device_type),
            driver: format!("{} {}", ctx.info.driver, ctx.info.driver_info).trim().to_string(),
        },
        indirect_validation: ctx.indirect_validation,
        size: [config.width, config.height],
        scene: match &config.scene {
            Some(scene) => {
                format!("{} ({})", scene.name, if scene.animated && config.animated { "animated" } else { "static" })
            }
            None => format!("default scene ({})", if config.animated { "animated" } else { "static" }),
        },
        rows,
        timestamps: ctx.has_timestamps(),
        multi_draw_indirect_count: ctx.has_count_draws(),
        warmup_frames: config.warmup,
        gpu_wait: config.gpu_wait,
        notes,
    })
}

/// "lod on, occlusion on": how a row was drawn, for progress lines.
pub fn describe(detail: &Detail) -> String {
    let on = |b: bool| if b { "on" } else { "off" };
    format!("lod {}, occlusion {}", on(detail.lod), on(detail.occlusion))
}

/// What one row draws.
struct RowSetup<'a> {
    mode: DrawMode,
    camera: crate::scene::Camera,
    animated: bool,
    detail: Detail,
    /// Whether puffin scopes are wanted for the measured frames.
    profiling: bool,
    /// The churning scene, its link to the renderer and the changes per frame.
    churn: Option<(&'a mut ChurnScene, &'a mut LiveSync, usize)>,
}

fn run_row(
    ctx: &GpuContext,
    renderer: &mut Renderer,
    lane: &mut GpuLane,
    target: &OffscreenTarget,
    config: &BenchConfig,
    setup: RowSetup<'_>,
    progress: &mut dyn FnMut(u32),
) -> Result<Row, BenchError> {
    let RowSetup { mode, camera, animated, detail, profiling, mut churn } = setup;
    let mut apply = Vec::new();
    let mut edit = Vec::new();
    let mut sync_times = Vec::new();
    let mut upload = Vec::new();
    let mut record = Vec::new();
    let mut finish = Vec::new();
    let mut cull = Vec::new();
    let mut frame_times = Vec::new();
    let mut wall = Vec::new();
    let mut gpu_wall = Vec::new();
    let mut submit = Vec::new();
    let mut gpu: Vec<GpuPassTimes> = Vec::new();
    let mut visible = Vec::new();
    let mut boundary = Vec::new();
    let mut commands = Default::default();
    let mut indirect_call = None;
    let mut counts = FrameCounts::default();
    // Measured frames that ran two phases / the compute rasteriser (the adaptive frame may
    // change its mind, `Detail::auto`).
    let (mut two_phase_frames, mut soft_frames, mut deferred_frames) = (0u32, 0u32, 0u32);
    let mut shadow_cascades = 0;
    let (mut shadow_two_phase_frames, mut shadow_soft_frames) = (0u32, 0u32);
    let mut casters = Vec::new();
    renderer.invalidate_bundle();
    // Each row's adaptive frame starts afresh, judged by this row's own frames.
    renderer.reset_adaptive();
    for i in 0..config.frames + config.warmup {
        let measured = i >= config.warmup;
        let input =
            FrameInput { time: i as f32 / 60.0, detail, ..FrameInput::new(camera, mode) }.with_shadows(config.shadows);
        puffin::set_scopes_on(profiling && measured);
        let (stats, frame_ms, wall_ms, readback) = {
            let tag = renderer.next_tag(mode);
            puffin::profile_scope!(FRAME_SCOPE, tag.to_string());
            let frame_start_ns = puffin::now_ns();
            lane.recalibrate_if_stale(ctx);
            if let Some((scene, sync, changes)) = churn.as_mut() {
                puffin::profile_scope!("apply changes");
                let start = Instant::now();
                scene.step(*changes)?;
                let edited = start.elapsed();
                let applied = sync.apply(ctx, renderer, &mut scene.live)?;
                if measured {
                    let applied_in = start.elapsed();
                    apply.push(applied_in.as_secs_f64() * 1e3);
                    edit.push(edited.as_secs_f64() * 1e3);
                    sync_times.push((applied_in - edited).as_secs_f64() * 1e3);
                    upload.push(applied.upload_bytes);
                }
            }
            let views = config.frame_views(&input);
            let frame_start = Instant::now();
            let stats = renderer.render_views(ctx, &target.frame_target(), &input, &views);
            let frame_ms = frame_start.elapsed().as_secs_f64() * 1e3;
            lane.submitted(tag);
            {
                puffin::profile_scope!("wait for gpu");
                wait(ctx, config.gpu_wait);
            }
            let wall_ms = frame_start.elapsed().as_secs_f64() * 1e3;
            renderer.report_frame_time(stats.frame, wall_ms);
            let readbacks: Vec<FrameReadback> = renderer.collect(&ctx.device);
            let readback = readbacks.iter().find(|r| r.frame == stats.frame).copied().unwrap_or_default();
            if let Some(times) = readback.gpu {
                lane.report(stats.frame, &times, frame_start_ns);
            }
            (stats, frame_ms, wall_ms, readback)
        };
        puffin::GlobalProfiler::lock().new_frame();
        let errors = ctx.take_errors();
        if let Some(message) = errors.into_iter().next() {
            return Err(BenchError::Gpu { mode, objects: renderer.buffers.object_count, message });
        }
        if measured {
            record.push(stats.record_ms);
            finish.push(stats.finish_ms);
            cull.push(stats.cpu_cull_ms);
            submit.push(stats.submit_ms);
            frame_times.push(frame_ms);
            wall.push(wall_ms);
            gpu_wall.push(wall_ms - frame_ms);
            gpu.extend(readback.gpu);
            visible.push(stats.cpu_visible.or(readback.visible).unwrap_or(0));
            if mode == DrawMode::Cpu {
                let uniforms = renderer.frame_uniforms(&input, target.width, target.height);
                let prepared = &renderer.prepared;
                boundary.push(crate::passes::cull::cpu::boundary_count(
                    &uniforms,
                    &prepared.objects,
                    &prepared.batches,
                ));
            }
            commands = stats.commands;
            indirect_call = stats.indirect;
            two_phase_frames += stats.two_phase as u32;
            soft_frames += stats.soft as u32;
            deferred_frames += stats.deferred as u32;
            shadow_cascades = stats.shadow_cascades;
            shadow_two_phase_frames += stats.shadow_two_phase as u32;
            shadow_soft_frames += stats.shadow_soft as u32;
            casters = (0..stats.shadow_cascades as usize)
                .map(|k| {
                    let cpu = stats.cascade_counts[k].map(|c| c.visible);
                    cpu.or(readback.cascade_counters[0][k].map(|c| c.drawn[0] + c.drawn[1])).unwrap_or(0)
                })
                .collect();
            counts = FrameCounts::of(&stats, &readback);
        }
        progress(i + 1);
    }
    let gpu_total = Stat::of(&gpu.iter().map(GpuPassTimes::total).collect::<Vec<_>>());
    let gpu_ms = (!gpu.is_empty()).then(|| {
        let timed = |pass: &str| {
            let times: Vec<f64> = gpu.iter().filter_map(|g| g.get(pass)).collect();
            (!times.is_empty()).then(|| Stat::of(&times).median)
        };
        let median = |pass: &str| timed(pass).unwrap_or(0.0);
        use crate::passes::{build, cull, main, pyramid, raster};
        let mut names: Vec<&str> = gpu.iter().flat_map(|g| g.iter().map(|&(name, _)| name)).collect();
        names.sort_unstable();
        names.dedup();
        GpuMs {
            passes: names.into_iter().filter_map(|name| Some((name.to_string(), timed(name)?))).collect(),
            cull: median(cull::NAME),
            build: median(build::NAME),
            main: median(main::NAME),
            total: gpu_total.median,
            pyramid: timed(pyramid::NAME),
            cull_late: timed(cull::LATE_NAME),
            build_late: timed(build::LATE_NAME),
            main_late: timed(main::LATE_NAME),
            raster: timed(raster::NAME),
            raster_late: timed(raster::LATE_NAME),
        }
    });
    upload.sort_unstable();
    let gpu_wall = Stat::of(&gpu_wall);
    let timestamp_coverage = (!gpu.is_empty()).then(|| gpu_total.median / gpu_wall.median.max(1e-9));
    let timestamps_short = !gpu.is_empty() && report::timestamps_short(gpu_total.median, gpu_wall.median);
    Ok(Row {
        mode,
        objects: churn.as_ref().map_or(renderer.buffers.object_count, |(scene, _, _)| scene.object_count() as u32),
        visible: visible.last().copied().unwrap_or(0),
        frames: config.frames,
        draw_commands: commands.draw_commands(),
        bind_group_sets: commands.bind_group_sets().to_vec(),
        cpu_record_ms: Stat::of(&record),
        cpu_cull_ms: Stat::of(&cull),
        cpu_frame_ms: Stat::of(&frame_times),
        gpu_ms,
        cpu_finish_ms: Stat::of(&finish),
        submit_ms: Stat::of(&submit),
        gpu_total_p95_ms: (!gpu.is_empty()).then_some(gpu_total.p95),
        animated,
        indirect_call,
        visible_per_frame: visible,
        // Moved after `cpu_record_ms` took its statistics (fields evaluate in written order).
        record_ms_per_frame: record,
        boundary_per_frame: boundary,
        lod: detail.lod,
        lod_error_px: detail.lod_error_px,
        min_pixels: detail.min_pixels,
        occlusion: 2 * two_phase_frames > config.frames,
        soft_raster: 2 * soft_frames > config.frames,
        occlusion_auto: detail.auto_occlusion && detail.occlusion && mode.gpu_culled(),
        soft_auto: detail.auto_soft && detail.soft && mode.gpu_culled(),
        two_phase_frames,
        soft_frames,
        deferred: 2 * deferred_frames > config.frames,
        deferred_auto: detail.auto_deferred && detail.deferred,
        deferred_frames,
        soft_drawn: counts.soft,
        occluders: counts.occluders,
        triangles: counts.triangles,
        in_frustum: counts.in_frustum,
        occluded: counts.occluded,
        drawn: counts.drawn,
        levels: counts.levels,
        churn: churn.map_or(0, |(_, _, changes)| changes),
        views: config.views,
        shadow_cascades,
        casters,
        shadow_two_phase_frames,
        shadow_occlusion_auto: detail.auto_shadow_occlusion && detail.shadow_occlusion && mode.gpu_culled(),
        shadow_soft_frames,
        shadow_soft_auto: detail.auto_soft && detail.soft && detail.shadow_soft && mode.gpu_culled(),
        upload_bytes: upload.get(upload.len() / 2).copied().unwrap_or(0),
        cpu_apply_ms: Stat::of(&apply),
        cpu_edit_ms: Stat::of(&edit),
        cpu_sync_ms: Stat::of(&sync_times),
        wall_ms: Stat::of(&wall),
        gpu_wall_ms: gpu_wall,
        timestamp_coverage,
        timestamps_short,
    })
}

/// The counters of one frame, from the GPU or from the CPU's culling.
#[derive(Clone, Copy, Debug, Default)]
struct FrameCounts {
    triangles: u64,
    in_frustum: u32,
    occluded: u32,
    drawn: [u32; 2],
    levels: [u32; crate::tunables::LOD_LEVELS as usize],
    soft: u32,
    occluders: u32,
}

impl FrameCounts {
    fn of(stats: &crate::frame::FrameStats, readback: &FrameReadback) -> Self {
        if let Some(c) = stats.cpu_counts {
            return Self {
                triangles: c.triangles,
                in_frustum: c.in_frustum,
                occluded: 0,
                drawn: [c.visible, 0],
                levels: c.levels,
                soft: 0,
                occluders: 0,
            };
        }
        readback.counters.map_or_else(Self::default, |c| Self {
            triangles: c.triangles,
            in_frustum: c.in_frustum,
            occluded: c.occluded,
            drawn: c.drawn,
            levels: c.levels,
            soft: c.soft,
            occluders: c.occluders,
        })
    }
}
