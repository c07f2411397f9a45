//! The renderer: the one API the window, the tests and the benchmark drive — `new` (upload +
//! pipelines), `render` (one frame into a target), `collect` (GPU readbacks).
//!
//! Every [`DrawMode`] shares the scene, the buffers and the pipelines; only what writes the
//! draws differs. What a mode records on this adapter is its [`FramePlan`], resolved once when
//! the renderer is made; `render` walks the plan's phases (one, or two with occlusion
//! culling) and each pass records itself.

pub mod plan;
pub mod prewarm;
mod setup;
pub mod tag;

use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;

use crate::gpu::commands::{dispatch_size, FrameCommands, FrameEncoder};
use crate::gpu::target::FrameTarget;
use crate::gpu::timer::{GpuPassTimes, GpuTimer};
use crate::gpu::GpuContext;
use crate::gpu_scene::types::{FrameUniforms, GpuObject};
use crate::gpu_scene::{check_scene, prepare, Layouts, PreparedScene, SceneBuffers, UploadError};
use crate::passes::build::BuildPass;
use crate::passes::cull::cpu::{CpuCounts, DrawnObject};
use crate::passes::cull::{CullPass, GpuCounters};
use crate::passes::main::indirect::IndirectCall;
use crate::passes::main::{bundle, MainPass, SurfaceInputs};
use crate::passes::pyramid::{self, PyramidPass};
use crate::passes::raster::{self, RasterPass};
use crate::passes::scatter::{ObjectUpdates, ScatterPass, UploadStats};
use crate::pipelines::PipelineError;
use crate::scene::camera::frustum_planes;
use crate::scene::{animation, Camera, Scene, Variant};
use crate::tunables::{SOFT_MAX_RADIUS_PX, WORKGROUP_SIZE};
pub use plan::{Capabilities, Detail, DrawMode, FramePlan, MainDraws};
use setup::FrameSetup;
pub use tag::FrameTag;

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
    /// `false` draws every object (for tests that prove culling happened): no frustum, size or
    /// occlusion test (levels of detail are still picked when `detail.lod` is on).
    pub cull_enabled: bool,
    /// Level of detail, size culling and occlusion culling.
    pub detail: Detail,
    /// Colour objects by their level of detail instead of their material (debug view).
    pub lod_colors: bool,
    /// Show base colour × texture without lighting (debug view; tests read texels with it).
    pub albedo: bool,
}

impl FrameInput {
    pub fn new(camera: Camera, mode: DrawMode) -> Self {
        Self {
            camera,
            cull_camera: None,
            time: 0.0,
            mode,
            cull_enabled: true,
            detail: Detail::default(),
            lod_colors: false,
            albedo: false,
        }
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
    /// What the CPU's culling counted (cpu and bundle modes).
    pub cpu_counts: Option<CpuCounts>,
    /// Whether the frame ran two culling phases (occlusion culling).
    pub two_phase: bool,
    /// Whether the frame drew small objects with the compute rasteriser.
    pub soft: bool,
    /// The multi-draw call the GPU-driven modes used (gpu falls back to gpu-nocount's draws
    /// without the count feature).
    pub indirect: Option<IndirectCall>,
}

/// GPU results of a frame, arriving a frame or two after it was submitted.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameReadback {
    pub frame: u64,
    /// GPU-counted visible objects (GPU modes): the objects that pass the frustum and size
    /// tests, the set the CPU baseline draws. Occlusion culling draws a subset of them.
    pub visible: Option<u32>,
    /// Every GPU counter of the frame (GPU modes).
    pub counters: Option<GpuCounters>,
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
    /// Compile every variant with every surface input (`passes::main::SurfaceInputs::ALL`),
    /// not only those the scene's materials read: for scenes that will change (live scenes).
    pub optional_inputs: bool,
    /// Draw small objects with the compute rasteriser (`passes::raster`) where the adapter
    /// can; live scenes, whose materials may change under their objects, do not.
    pub soft_raster: bool,
}

impl RendererOptions {
    pub fn new(color_format: wgpu::TextureFormat) -> Self {
        Self { color_format, workgroup_size: WORKGROUP_SIZE, prewarm: true, optional_inputs: false, soft_raster: true }
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
    pub build: BuildPass,
    pub main: MainPass,
    /// The depth pyramid of the two-phase frames, fitted to the target's depth buffer.
    pub pyramid: PyramidPass,
    /// Copies object records changed between frames into place, first in the frame.
    pub scatter: ScatterPass,
    /// The compute rasteriser for small objects; `None` where the adapter lacks 64-bit
    /// atomics, the scene's arena cannot be bound as storage, or the options turn it off.
    pub raster: Option<RasterPass>,
    /// The object records changed since the last frame ([`Renderer::set_object`]).
    updates: ObjectUpdates,
    /// The view-projection the pyramid was last built with, while it holds a frame's depth.
    pyramid_view_proj: Option<glam::Mat4>,
    pub buffers: SceneBuffers,
    /// The scene in GPU order; its object indices are the ids every pass uses.
    pub prepared: PreparedScene,
    /// Records of `prepared.objects` the compute rasteriser may draw (`SOFT_BIT`), kept by
    /// [`Renderer::set_object`]: with none (a live scene's objects all go to the hardware) no
    /// frame runs the rasteriser, and none says it did.
    soft_records: u32,
    /// What each mode records on this adapter, by `DrawMode as usize`.
    plans: [FramePlan; DrawMode::ALL.len()],
    /// Per-frame GPU pass times; `None` without `TIMESTAMP_QUERY`.
    timer: Option<GpuTimer>,
    /// The bundle mode's recording and what its culling counted, made on its first frame and
    /// replayed after.
    bundle: Option<(bundle::RecordedBundle, CpuCounts)>,
    /// The cpu mode's drawn objects, reused every frame.
    visible_scratch: Vec<DrawnObject>,
    /// The frame uniforms' bytes, reused every frame.
    uniform_bytes: Vec<u8>,
    /// Number of the next frame; readbacks are matched to frames by it.
    frame_number: u64,
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

    /// Gets the pipelines (compiled on worker threads, each pass's in parallel) while the
    /// scene is prepared and uploaded on this one, then prewarms.
    pub fn with_options(ctx: &GpuContext, scene: &Scene, options: &RendererOptions) -> Result<Self, RendererError> {
        profile_function!();
        let start = Instant::now();
        check_scene(scene, &ctx.limits)?;
        let layouts = Layouts::shared(&ctx.device, &ctx.pipelines);
        let (passes, prepared, buffers, pipelines_ms, upload_ms) = std::thread::scope(|scope| {
            let compile = scope.spawn(|| {
                let start = Instant::now();
                let (cull, build, main, pyramid, scatter, raster) = std::thread::scope(|passes| {
                    let cull =
                        passes.spawn(|| CullPass::new(&ctx.device, &ctx.pipelines, &layouts, options.workgroup_size));
                    let build = passes.spawn(|| BuildPass::new(&ctx.pipelines, &layouts, options.workgroup_size));
                    let pyramid = passes.spawn(|| PyramidPass::new(&ctx.device, &ctx.pipelines, &layouts));
                    let scatter = passes.spawn(|| ScatterPass::new(&ctx.pipelines, &layouts, options.workgroup_size));
                    let raster = passes.spawn(|| {
                        let soft = options.soft_raster && ctx.device.features().contains(raster::FEATURES);
                        soft.then(|| RasterPass::new(&ctx.pipelines, &layouts, options.color_format)).transpose()
                    });
                    let inputs = if options.optional_inputs {
                        [SurfaceInputs::ALL; Variant::ALL.len()]
                    } else {
                        SurfaceInputs::of_scene(scene)
                    };
                    let main = MainPass::new(&ctx.pipelines, &layouts, options.color_format, inputs);
                    let joined = "pipeline compilation thread panicked";
                    let (cull, build) = (cull.join().expect(joined), build.join().expect(joined));
                    let (pyramid, scatter) = (pyramid.join().expect(joined), scatter.join().expect(joined));
                    (cull, build, main, pyramid, scatter, raster.join().expect(joined))
                });
                ((cull, build, main, pyramid, scatter, raster), start.elapsed().as_secs_f64() * 1e3)
            });
            let upload_start = Instant::now();
            let prepared = prepare(scene);
            let buffers = SceneBuffers::upload(&ctx.device, &ctx.queue, &layouts, scene, &prepared);
            let upload_ms = upload_start.elapsed().as_secs_f64() * 1e3;
            let (passes, pipelines_ms) = compile.join().expect("pipeline compilation thread panicked");
            (passes, prepared, buffers, pipelines_ms, upload_ms)
        });
        let (cull, build, main, mut pyramid, scatter) = (passes.0?, passes.1?, passes.2?, passes.3?, passes.4?);
        let mut raster = passes.5?.filter(|_| buffers.soft_buffers);
        let updates = ObjectUpdates::new(&ctx.device, &layouts, &buffers, options.workgroup_size);
        let prewarm_ms = if options.prewarm {
            prewarm::prewarm(ctx, &cull, &build, &main, (&mut pyramid, raster.as_mut()), (&scatter, &updates), &buffers)
        } else {
            0.0
        };
        let capabilities = Capabilities::of(ctx);
        Ok(Self {
            timer: GpuTimer::new(&ctx.device, &ctx.queue),
            plans: DrawMode::ALL.map(|mode| FramePlan::resolve(mode, capabilities)),
            layouts,
            cull,
            build,
            main,
            pyramid,
            scatter,
            raster,
            updates,
            pyramid_view_proj: None,
            buffers,
            soft_records: soft_records(&prepared.objects),
            prepared,
            bundle: None,
            visible_scratch: Vec::new(),
            uniform_bytes: Vec::new(),
            frame_number: 0,
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
        self.set_prepared_scene(ctx, scene, prepare(scene))
    }

    /// Replaces the scene with one already in GPU order (`prepare(scene)`, possibly edited:
    /// a live scene hides its spare slots); checks it as [`Renderer::set_scene`] does.
    pub fn set_prepared_scene(
        &mut self,
        ctx: &GpuContext,
        scene: &Scene,
        prepared: PreparedScene,
    ) -> Result<(), UploadError> {
        check_scene(scene, &ctx.limits)?;
        self.buffers = SceneBuffers::upload(&ctx.device, &ctx.queue, &self.layouts, scene, &prepared);
        self.updates.rebind(&ctx.device, &self.layouts, &self.buffers);
        if let Some(raster) = self.raster.as_mut() {
            raster.invalidate();
        }
        if !self.buffers.soft_buffers {
            self.raster = None;
        }
        self.soft_records = soft_records(&prepared.objects);
        self.prepared = prepared;
        self.bundle = None;
        Ok(())
    }

    /// Replaces object `id`'s record (an index of `prepared.objects`, as every pass numbers
    /// objects): the host copy the cpu and bundle modes cull from at once, the GPU's by the
    /// next frame's scatter pass (`passes::scatter`). The cost is the record's, whatever the
    /// scene's size.
    pub fn set_object(&mut self, id: u32, record: GpuObject) {
        let old = std::mem::replace(&mut self.prepared.objects[id as usize], record);
        self.soft_records = self.soft_records - is_soft_record(&old) as u32 + is_soft_record(&record) as u32;
        self.updates.set(id, record);
        self.bundle = None;
    }

    /// Uploads the records set since the last frame in one `write_buffer` (each id once);
    /// the next frame's scatter pass copies them into place. Every frame does this before it
    /// records; calling it earlier times the upload apart from the frame.
    pub fn flush_object_updates(&mut self, ctx: &GpuContext) -> UploadStats {
        self.updates.flush(&ctx.device, &ctx.queue, &self.layouts, &self.buffers, &self.prepared.objects)
    }

    pub fn has_timestamps(&self) -> bool {
        self.timer.is_some()
    }

    /// The number the next [`Renderer::render`] gives its frame.
    pub fn next_frame(&self) -> u64 {
        self.frame_number
    }

    /// The puffin scope data of the next frame drawn in `mode`.
    pub fn next_tag(&self, mode: DrawMode) -> FrameTag {
        FrameTag::new(self.frame_number, mode, self.buffers.object_count)
    }

    /// What `mode` records on this renderer's adapter.
    pub fn plan(&self, mode: DrawMode) -> &FramePlan {
        &self.plans[mode as usize]
    }

    /// Forgets the recorded bundle so the next bundle frame records a fresh one.
    pub fn invalidate_bundle(&mut self) {
        self.bundle = None;
    }

    /// Whether a frame of `input` draws its small objects with the compute rasteriser: the
    /// renderer has one, the scene has objects it can draw, the mode culls into batches,
    /// `input.detail.soft` asks for it, and the drawing camera is the culling one (frozen
    /// culling judges sizes from another camera).
    pub fn soft_raster(&self, input: &FrameInput) -> bool {
        self.raster.is_some()
            && self.soft_records > 0
            && self.plan(input.mode).soft_raster
            && input.detail.soft
            && input.cull_enabled
            && input.cull_camera.is_none()
    }

    /// Whether a frame of `input` runs two culling phases.
    pub fn two_phase(&self, input: &FrameInput) -> bool {
        self.plan(input.mode).phases(input.detail.occlusion).len() == 2
    }

    /// The uniforms a frame with this input uses on a `width` × `height` target; the CPU
    /// culling reference reads the same.
    pub fn frame_uniforms(&self, input: &FrameInput, width: u32, height: u32) -> FrameUniforms {
        let aspect = width as f32 / height.max(1) as f32;
        let view_proj = input.camera.view_proj(aspect);
        let cull_camera = input.cull_camera.unwrap_or(input.camera);
        let (_, _, dispatch_width) = dispatch_size(self.buffers.object_count, self.cull.workgroup_size());
        // Pixels per unit of size at distance 1: the projection's y scale times half the height.
        let pixels_per_unit = height as f32 * 0.5 / (cull_camera.fov_y * 0.5).tan();
        let detail = input.detail;
        let (pyramid_size, pyramid_levels) = if self.two_phase(input) {
            let (w, h) = pyramid::base_size(width, height);
            (glam::UVec2::new(w, h), pyramid::level_sizes(width, height).len() as u32)
        } else {
            (glam::UVec2::ZERO, 0)
        };
        FrameUniforms {
            view_proj,
            cull_planes: frustum_planes(cull_camera.view_proj(aspect)),
            camera_position: input.camera.position.extend(1.0),
            light_direction: Vec3::new(0.4, 0.8, 0.45).normalize().extend(0.25),
            animation: animation::animation_table(input.time),
            object_count: self.buffers.object_count,
            batch_count: self.buffers.batch_count,
            cull_enabled: input.cull_enabled as u32,
            compact: self.plan(input.mode).compact() as u32,
            dispatch_width,
            identity_base: self.buffers.identity_base,
            time: input.time,
            lod_origin: cull_camera.position.extend(1.0),
            lod_enabled: detail.lod as u32,
            lod_factor: pixels_per_unit / detail.lod_error_px.max(f32::MIN_POSITIVE),
            small_enabled: (detail.min_pixels > 0.0) as u32,
            // Diameter 2r·pixels_per_unit/d below min_pixels ⇔ r·small_factor < d.
            small_factor: 2.0 * pixels_per_unit / detail.min_pixels.max(f32::MIN_POSITIVE),
            pyramid_size,
            pyramid_levels,
            debug_view: if input.albedo { 2 } else { input.lod_colors as u32 },
            encode_srgb: self.main.encodes_srgb as u32,
            occlusion_view_proj: view_proj,
            target_size: glam::Vec2::new(width as f32, height as f32),
            soft_enabled: self.soft_raster(input) as u32,
            // Radius r·pixels_per_unit/d (on the view axis) at most SOFT_MAX_RADIUS_PX ⇔
            // r·soft_factor ≤ d; the cull pass adds the stretch off the axis.
            soft_factor: pixels_per_unit / SOFT_MAX_RADIUS_PX,
            soft_base: self.buffers.soft_base,
        }
    }

    /// Records and submits one frame: the plan's passes in order.
    pub fn render(&mut self, ctx: &GpuContext, target: &FrameTarget<'_>, input: &FrameInput) -> FrameStats {
        #[cfg(feature = "profiling")]
        let tag = if puffin::are_scopes_on() { self.next_tag(input.mode).to_string() } else { String::new() };
        profile_scope!("render", &tag);
        let frame = self.frame_number;
        self.frame_number += 1;
        let FrameSetup { plan, phases, keep_pyramid, cpu_cull_ms, cpu_counts, soft } = self.setup(ctx, target, input);

        let record_start = Instant::now();
        let finish_start: Instant;
        // Lent to the frame's encoder while the passes (which borrow the renderer) record.
        let mut timer = self.timer.take();
        let (command_buffer, commands) = {
            profile_scope!("record");
            #[cfg(feature = "profiling")]
            let encode_scope = puffin::profile_scope_custom!("encode");
            let mut encoder = FrameEncoder::new(&ctx.device, "frame", timer.as_mut());
            self.record_phases(&mut encoder, target, &plan, phases, keep_pyramid, soft);
            if plan.cull.is_some() {
                self.cull.copy_counters(&mut encoder, &self.buffers, frame);
            }
            let FrameEncoder { mut encoder, timer, commands } = encoder;
            if let Some(timer) = timer {
                timer.resolve(&mut encoder, frame);
            }
            #[cfg(feature = "profiling")]
            drop(encode_scope);
            // wgpu 27 encodes the recorded commands into the driver's command buffer here.
            profile_scope!("finish");
            finish_start = Instant::now();
            (encoder.finish(), commands)
        };
        self.timer = timer;
        let finish_ms = finish_start.elapsed().as_secs_f64() * 1e3;
        let record_ms = record_start.elapsed().as_secs_f64() * 1e3;

        let submit_start = Instant::now();
        {
            profile_scope!("submit", &tag);
            ctx.queue.submit([command_buffer]);
        }
        let submit_ms = submit_start.elapsed().as_secs_f64() * 1e3;
        self.cull.submitted();
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
            cpu_visible: cpu_counts.map(|c| c.visible),
            cpu_counts,
            two_phase: phases.len() == 2,
            soft,
            indirect: plan.indirect().map(|d| d.call()),
        }
    }

    /// GPU results (visible counts, pass times) of frames that have finished, oldest first.
    /// Never blocks; call [`GpuContext::wait_idle`] first to get everything submitted so far.
    pub fn collect(&mut self, device: &wgpu::Device) -> Vec<FrameReadback> {
        profile_scope!("collect readbacks");
        for (frame, counters) in self.cull.collect(device) {
            let entry = self.entry(frame);
            entry.visible = Some(counters.visible);
            entry.counters = Some(counters);
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

/// Whether the compute rasteriser may draw `record`'s object (`tunables::SOFT_BIT`).
fn is_soft_record(record: &GpuObject) -> bool {
    record.animation & crate::tunables::SOFT_BIT != 0
}

fn soft_records(records: &[GpuObject]) -> u32 {
    records.iter().filter(|r| is_soft_record(r)).count() as u32
}
