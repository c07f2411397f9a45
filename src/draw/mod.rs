//! The ways of drawing a frame and the renderer that drives them.
//!
//! Every [`DrawMode`] shares the scene, the buffers and the pipelines; only what writes the
//! draws differs. The window, the tests and the benchmark all go through [`Renderer`]:
//! `new` (upload + pipelines), `render` (one frame into a target), `collect` (GPU readbacks).

pub mod baseline;
pub mod bundles;
pub mod gpu_driven;
pub mod main_pass;
pub mod recorder;

use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;

use crate::cull::{dispatch_size, CullOutput, CullPass};
use crate::gpu::buffers::{check_scene, SceneBuffers, UploadError};
use crate::gpu::layout::Layouts;
use crate::gpu::readback::ReadbackRing;
use crate::gpu::target::FrameTarget;
use crate::gpu::timer::{GpuPassTimes, GpuTimer};
use crate::gpu::types::FrameUniforms;
use crate::gpu::GpuContext;
use crate::pipelines::PipelineError;
use crate::scene::camera::frustum_planes;
use crate::scene::{animation, prepare, Camera, PreparedScene, Scene};
use crate::tunables::{VARIANT_COUNT, VISIBLE_COUNTER_SLOT, WORKGROUP_SIZE};
use gpu_driven::IndirectDraws;
use main_pass::MainPass;
use recorder::{CountingRenderPass, FrameCommands};

/// The ways of drawing. Each has one kebab-case name (`gpu-nocount`), the same on the command
/// line (clap), in JSON (serde) and in labels ([`DrawMode::name`]); `tests/cli.rs` checks that
/// they agree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
#[value(rename_all = "kebab-case")]
pub enum DrawMode {
    /// GPU culling, per-batch draws compacted, `multi_draw_indexed_indirect_count`.
    Gpu,
    /// GPU culling, one draw slot per batch (empty ones too), `multi_draw_indexed_indirect`.
    GpuNocount,
    /// GPU culling, one indirect command per object, count variant where available.
    GpuPerObject,
    /// CPU culling, one `draw_indexed` per visible object.
    Cpu,
    /// The CPU baseline recorded once into a render bundle and replayed (static scenes only).
    Bundle,
}

impl DrawMode {
    pub const ALL: [DrawMode; 5] =
        [DrawMode::Gpu, DrawMode::GpuNocount, DrawMode::GpuPerObject, DrawMode::Cpu, DrawMode::Bundle];

    pub fn name(self) -> &'static str {
        match self {
            DrawMode::Gpu => "gpu",
            DrawMode::GpuNocount => "gpu-nocount",
            DrawMode::GpuPerObject => "gpu-per-object",
            DrawMode::Cpu => "cpu",
            DrawMode::Bundle => "bundle",
        }
    }

    /// Whether the GPU culls (and the visible count comes from a GPU readback).
    pub fn gpu_culled(self) -> bool {
        matches!(self, DrawMode::Gpu | DrawMode::GpuNocount | DrawMode::GpuPerObject)
    }
}

impl std::fmt::Display for DrawMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // `pad`, so that `{:<15}` in tables pads the name.
        f.pad(self.name())
    }
}

impl std::str::FromStr for DrawMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DrawMode::ALL.into_iter().find(|m| m.name() == s).ok_or_else(|| {
            let names: Vec<_> = DrawMode::ALL.iter().map(|m| m.name()).collect();
            format!("unknown mode \"{s}\"; expected one of: {}", names.join(", "))
        })
    }
}

#[derive(Debug, thiserror::Error)]
pub enum RendererError {
    #[error(transparent)]
    Upload(#[from] UploadError),
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
}

/// What one frame should show.
#[derive(Clone, Copy, Debug)]
pub struct FrameInput {
    pub camera: Camera,
    /// Camera whose frustum culls; `None` culls with `camera` (set it to freeze culling).
    pub cull_camera: Option<Camera>,
    /// Animation time in seconds.
    pub time: f32,
    pub mode: DrawMode,
    /// `false` draws every object (for tests that prove culling happened).
    pub cull_enabled: bool,
}

impl FrameInput {
    pub fn new(camera: Camera, mode: DrawMode) -> Self {
        Self { camera, cull_camera: None, time: 0.0, mode, cull_enabled: true }
    }
}

/// CPU-side facts of one recorded frame.
#[derive(Clone, Copy, Debug)]
pub struct FrameStats {
    pub frame: u64,
    pub mode: DrawMode,
    pub commands: FrameCommands,
    /// Encoder creation to `finish`, in ms.
    pub record_ms: f64,
    /// The `finish` call alone (where wgpu 27 encodes into the driver's command buffer), in ms.
    pub finish_ms: f64,
    /// CPU frustum culling (cpu mode), in ms; 0 where the GPU culls.
    pub cpu_cull_ms: f64,
    pub submit_ms: f64,
    /// Visible objects known on the CPU (cpu and bundle modes); GPU modes report theirs
    /// through [`Renderer::collect`].
    pub cpu_visible: Option<u32>,
    /// The draw mode actually used (gpu falls back to gpu-nocount without the count feature).
    pub indirect: Option<&'static str>,
}

/// GPU results of a frame, arriving a frame or two after it was submitted.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameReadback {
    pub frame: u64,
    /// GPU-counted visible objects (GPU modes).
    pub visible: Option<u32>,
    pub gpu: Option<GpuPassTimes>,
}

/// How to build a renderer.
#[derive(Clone, Copy, Debug)]
pub struct RendererOptions {
    pub color_format: wgpu::TextureFormat,
    /// Cull workgroup size (tests use a tiny one to reach more than 65,535 workgroups with a
    /// scene that fits the storage limits).
    pub workgroup_size: u32,
    /// Run every pipeline once before the first frame (see `pipelines::prewarm`).
    pub prewarm: bool,
}

impl RendererOptions {
    pub fn new(color_format: wgpu::TextureFormat) -> Self {
        Self { color_format, workgroup_size: WORKGROUP_SIZE, prewarm: true }
    }
}

/// Start-up timings of a renderer.
#[derive(Clone, Copy, Debug, Default)]
pub struct StartupTimes {
    /// Getting every pipeline from the cache (compiling on worker threads), in ms.
    pub pipelines_ms: f64,
    /// Preparing and uploading the scene (in parallel with the pipelines), in ms.
    pub upload_ms: f64,
    /// Prewarming (0 when off), in ms.
    pub prewarm_ms: f64,
    /// All of start-up, in ms.
    pub total_ms: f64,
}

pub struct Renderer {
    pub layouts: Arc<Layouts>,
    pub cull: CullPass,
    pub main: MainPass,
    pub buffers: SceneBuffers,
    /// The scene in GPU order; its object indices are the ids every pass uses.
    pub prepared: PreparedScene,
    /// Per-frame GPU pass times; `None` without `TIMESTAMP_QUERY`.
    timer: Option<GpuTimer>,
    /// Copies of the draw-count buffer (GPU visible count), read a frame or two late.
    visible_ring: ReadbackRing,
    /// The bundle mode's recording, made on its first frame and replayed after.
    bundle: Option<bundles::RecordedBundle>,
    /// The cpu mode's visible ids, reused every frame.
    visible_scratch: Vec<u32>,
    /// Number of the next frame; readbacks are matched to frames by it.
    frame_number: u64,
    /// Whether the device has `MULTI_DRAW_INDIRECT_COUNT`.
    has_count: bool,
    /// Frames whose readbacks have partly arrived.
    pending: Vec<FrameReadback>,
    pub startup: StartupTimes,
}

impl Renderer {
    /// A renderer with default options: prewarmed, default workgroup size.
    pub fn new(ctx: &GpuContext, scene: &Scene, color_format: wgpu::TextureFormat) -> Result<Self, RendererError> {
        Self::with_options(ctx, scene, &RendererOptions::new(color_format))
    }

    pub fn with_workgroup_size(
        ctx: &GpuContext,
        scene: &Scene,
        color_format: wgpu::TextureFormat,
        workgroup_size: u32,
    ) -> Result<Self, RendererError> {
        Self::with_options(ctx, scene, &RendererOptions { workgroup_size, ..RendererOptions::new(color_format) })
    }

    /// Gets the pipelines (compiled on worker threads) while the scene is prepared and
    /// uploaded on this one, then prewarms.
    pub fn with_options(ctx: &GpuContext, scene: &Scene, options: &RendererOptions) -> Result<Self, RendererError> {
        puffin::profile_function!();
        let start = Instant::now();
        check_scene(scene, &ctx.limits)?;
        let layouts = ctx.layouts.clone();
        let (cull, main, prepared, buffers, pipelines_ms, upload_ms) = std::thread::scope(|scope| {
            let compile = scope.spawn(|| {
                let start = Instant::now();
                let cull = CullPass::new(&ctx.pipelines, &layouts, options.workgroup_size);
                let main = MainPass::new(&ctx.pipelines, &layouts, options.color_format);
                (cull, main, start.elapsed().as_secs_f64() * 1e3)
            });
            let upload_start = Instant::now();
            let prepared = prepare(scene);
            let buffers = SceneBuffers::upload(&ctx.device, &ctx.queue, &layouts, scene, &prepared);
            let upload_ms = upload_start.elapsed().as_secs_f64() * 1e3;
            let (cull, main, pipelines_ms) = compile.join().expect("pipeline compilation thread panicked");
            (cull, main, prepared, buffers, pipelines_ms, upload_ms)
        });
        let (cull, main) = (cull?, main?);
        let prewarm_ms =
            if options.prewarm { crate::pipelines::prewarm::prewarm(ctx, &cull, &main, &buffers) } else { 0.0 };
        Ok(Self {
            timer: GpuTimer::new(&ctx.device, &ctx.queue),
            visible_ring: ReadbackRing::new(&ctx.device, "draw count readback", (VARIANT_COUNT as u64 + 1) * 4),
            layouts,
            cull,
            main,
            buffers,
            prepared,
            bundle: None,
            visible_scratch: Vec::new(),
            frame_number: 0,
            has_count: ctx.has_count_draws(),
            pending: Vec::new(),
            startup: StartupTimes {
                pipelines_ms,
                upload_ms,
                prewarm_ms,
                total_ms: start.elapsed().as_secs_f64() * 1e3,
            },
        })
    }

    /// Replaces the scene; pipelines and layouts are kept.
    pub fn set_scene(&mut self, ctx: &GpuContext, scene: &Scene) -> Result<(), UploadError> {
        check_scene(scene, &ctx.limits)?;
        let prepared = prepare(scene);
        self.buffers = SceneBuffers::upload(&ctx.device, &ctx.queue, &self.layouts, scene, &prepared);
        self.prepared = prepared;
        self.bundle = None;
        Ok(())
    }

    pub fn has_timestamps(&self) -> bool {
        self.timer.is_some()
    }

    /// Forgets the recorded bundle so the next bundle frame records a fresh one.
    pub fn invalidate_bundle(&mut self) {
        self.bundle = None;
    }

    /// The uniforms a frame with this input uses; the CPU culling reference reads the same.
    pub fn frame_uniforms(&self, input: &FrameInput, aspect: f32, compact: bool) -> FrameUniforms {
        let view_proj = input.camera.view_proj(aspect);
        let cull_camera = input.cull_camera.unwrap_or(input.camera);
        let (_, _, dispatch_width) = dispatch_size(self.buffers.object_count, self.cull.workgroup_size);
        FrameUniforms {
            view_proj,
            cull_planes: frustum_planes(cull_camera.view_proj(aspect)),
            camera_position: input.camera.position.extend(1.0),
            light_direction: Vec3::new(0.4, 0.8, 0.45).normalize().extend(0.25),
            animation: animation::animation_table(input.time),
            object_count: self.buffers.object_count,
            batch_count: self.buffers.batch_count,
            cull_enabled: input.cull_enabled as u32,
            compact: compact as u32,
            dispatch_width,
            identity_base: self.buffers.object_count,
            time: input.time,
            _pad: 0,
        }
    }

    /// How a GPU mode consumes its draws on this device.
    fn indirect_draws(&self, mode: DrawMode) -> Option<IndirectDraws> {
        match mode {
            DrawMode::Gpu if self.has_count => Some(IndirectDraws::BatchesCounted),
            DrawMode::Gpu | DrawMode::GpuNocount => Some(IndirectDraws::BatchesAll),
            DrawMode::GpuPerObject if self.has_count => Some(IndirectDraws::ObjectsCounted),
            DrawMode::GpuPerObject => Some(IndirectDraws::ObjectsAll),
            DrawMode::Cpu | DrawMode::Bundle => None,
        }
    }

    /// Records and submits one frame.
    pub fn render(&mut self, ctx: &GpuContext, target: &FrameTarget<'_>, input: &FrameInput) -> FrameStats {
        puffin::profile_function!(input.mode.name());
        let frame = self.frame_number;
        self.frame_number += 1;
        let indirect = self.indirect_draws(input.mode);
        let compact = matches!(indirect, Some(IndirectDraws::BatchesCounted | IndirectDraws::ObjectsCounted));
        let uniforms = self.frame_uniforms(input, target.aspect(), compact);
        ctx.queue.write_buffer(&self.buffers.frame, 0, bytemuck::bytes_of(&uniforms));

        let mut cpu_cull_ms = 0.0;
        let mut cpu_visible = None;
        match input.mode {
            DrawMode::Cpu => {
                puffin::profile_scope!("cpu cull");
                let start = Instant::now();
                crate::cull::cpu::cull_into(&uniforms, &self.prepared.objects, &mut self.visible_scratch);
                cpu_cull_ms = start.elapsed().as_secs_f64() * 1e3;
                cpu_visible = Some(self.visible_scratch.len() as u32);
            }
            DrawMode::Bundle => {
                if self.bundle.is_none() {
                    puffin::profile_scope!("record bundle");
                    let visible = crate::cull::cpu::cull(&uniforms, &self.prepared.objects);
                    self.bundle =
                        Some(bundles::record(&ctx.device, &self.main, &self.buffers, &self.prepared, &visible));
                }
                cpu_visible = self.bundle.as_ref().map(|b| b.visible);
            }
            _ => {}
        }

        let mut commands = FrameCommands::default();
        let record_start = Instant::now();
        let finish_start: Instant;
        let command_buffer = {
            puffin::profile_scope!("record");
            let mut encoder =
                ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
            if let Some(draws) = indirect {
                let output = match draws {
                    IndirectDraws::BatchesCounted | IndirectDraws::BatchesAll => CullOutput::Batches,
                    IndirectDraws::ObjectsCounted | IndirectDraws::ObjectsAll => CullOutput::PerObject,
                };
                self.cull.record(
                    &mut encoder,
                    &self.buffers,
                    output,
                    self.timer.as_mut(),
                    &mut commands.cull,
                    &mut commands.build,
                );
                let size = self.visible_ring.size();
                if let Some(staging) = self.visible_ring.begin(frame) {
                    encoder.copy_buffer_to_buffer(&self.buffers.draw_counts, 0, staging, 0, size);
                }
            }
            {
                let mut pass = self.main.begin(&mut encoder, target, self.timer.as_mut());
                let mut pass = CountingRenderPass { pass: &mut pass, counts: &mut commands.main };
                match (input.mode, indirect) {
                    (_, Some(draws)) => gpu_driven::record(&self.main, &mut pass, &self.buffers, &self.prepared, draws),
                    (DrawMode::Cpu, None) => {
                        baseline::record(&self.main, &mut pass, &self.buffers, &self.prepared, &self.visible_scratch)
                    }
                    (_, None) => {
                        let bundle = self.bundle.as_ref().expect("the bundle was recorded above");
                        pass.execute_bundle(&bundle.bundle);
                        // The bundle's own state changes run again with every replay.
                        pass.counts.set_bind_group = bundle.commands.set_bind_group;
                    }
                }
            }
            if let Some(timer) = self.timer.as_mut() {
                timer.resolve(&mut encoder, frame);
            }
            // wgpu 27 encodes the recorded commands into the driver's command buffer here.
            finish_start = Instant::now();
            encoder.finish()
        };
        let finish_ms = finish_start.elapsed().as_secs_f64() * 1e3;
        let record_ms = record_start.elapsed().as_secs_f64() * 1e3;

        let submit_start = Instant::now();
        {
            puffin::profile_scope!("submit");
            ctx.queue.submit([command_buffer]);
        }
        let submit_ms = submit_start.elapsed().as_secs_f64() * 1e3;
        if indirect.is_some() {
            self.visible_ring.submitted();
        }
        if let Some(timer) = self.timer.as_mut() {
            timer.submitted();
        }
        FrameStats {
            frame,
            mode: input.mode,
            commands,
            record_ms,
            finish_ms,
            cpu_cull_ms,
            submit_ms,
            cpu_visible,
            indirect: indirect.map(|d| match d {
                IndirectDraws::BatchesCounted | IndirectDraws::ObjectsCounted => "multi_draw_indexed_indirect_count",
                IndirectDraws::BatchesAll | IndirectDraws::ObjectsAll => "multi_draw_indexed_indirect",
            }),
        }
    }

    /// GPU results (visible counts, pass times) of frames that have finished, oldest first.
    /// Never blocks; call [`GpuContext::wait_idle`] first to get everything submitted so far.
    pub fn collect(&mut self, device: &wgpu::Device) -> Vec<FrameReadback> {
        for (frame, bytes) in self.visible_ring.collect(device) {
            let counts: &[u32] = bytemuck::cast_slice(&bytes);
            self.entry(frame).visible = Some(counts[VISIBLE_COUNTER_SLOT as usize]);
        }
        if let Some(timer) = self.timer.as_mut() {
            let results = timer.collect(device);
            for (frame, times) in results {
                self.entry(frame).gpu = Some(times);
            }
        }
        let latest_submitted = self.frame_number;
        // A frame is complete once every readback it asked for has arrived; anything older than
        // the ring depth will never get more.
        let (done, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut self.pending).into_iter().partition(|r| {
            r.gpu.is_some()
                || self.timer.is_none()
                || latest_submitted > r.frame + crate::tunables::READBACK_RING as u64 + 1
        });
        self.pending = waiting;
        let mut done = done;
        done.sort_by_key(|r| r.frame);
        done
    }

    fn entry(&mut self, frame: u64) -> &mut FrameReadback {
        if let Some(i) = self.pending.iter().position(|r| r.frame == frame) {
            &mut self.pending[i]
        } else {
            self.pending.push(FrameReadback { frame, ..Default::default() });
            self.pending.last_mut().expect("just pushed")
        }
    }
}
