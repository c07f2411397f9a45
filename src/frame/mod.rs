//! The renderer: the one API the window, the tests, the benchmark and embedding applications
//! drive — `new` (upload + pipelines), `render` / `render_views` (one frame of one or more
//! [`View`]s into a target), `collect` (GPU readbacks).
//!
//! Every [`DrawMode`] shares the scene, the buffers and the pipelines; only what writes the
//! draws differs. What a mode records on this adapter is its [`FramePlan`], resolved once when
//! the renderer is made; per view, the plan's [`FramePlan::schedule`] decides the steps, and
//! the renderer walks them (`setup.rs`), each pass recording itself.

pub mod adapt;
mod io;
pub mod plan;
pub mod prewarm;
mod setup;
pub mod shadows;
pub mod tag;
mod uniforms;
pub mod view;

use crate::clock::Instant;
use std::sync::Arc;

use crate::gpu::commands::FrameEncoder;
use crate::gpu::target::FrameTarget;
use crate::gpu::timer::GpuTimer;
use crate::gpu::GpuContext;
use crate::gpu_scene::textures::EnvironmentMaps;
use crate::gpu_scene::types::GpuObject;
use crate::gpu_scene::{check_scene, prepare, Layouts, PreparedScene, SceneBuffers, UploadError};
use crate::passes::blend::BlendSortPass;
use crate::passes::build::BuildPass;
use crate::passes::cull::CullPass;
use crate::passes::deferred::{self, DeferredPass};
use crate::passes::environment::EnvironmentPass;
use crate::passes::main::{self, MainPass, SurfaceInputs};
use crate::passes::pyramid::PyramidPass;
use crate::passes::raster::{self, RasterPass};
use crate::passes::scatter::{ObjectUpdates, ScatterPass, UploadStats};
use crate::passes::shadow::ShadowPass;
use crate::pipelines::PipelineError;
use crate::scene::{Environment, Scene, Sun, Variant};
pub use io::{FrameInput, FrameReadback, FrameStats, RendererOptions, StartupTimes};
pub use plan::{Capabilities, Detail, DrawMode, FramePlan, MainDraws, Step, ViewRequest, ViewSchedule};
use shadows::SceneBounds;
pub use tag::FrameTag;
use view::ViewState;
pub use view::{View, Viewport};

/// Why a renderer could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RendererError {
    /// The scene does not fit the adapter's limits, or refers to what it does not have.
    #[error(transparent)]
    Upload(#[from] UploadError),
    /// A pipeline failed to build.
    #[error(transparent)]
    Pipeline(#[from] PipelineError),
}

/// The engine: a scene on the GPU, every pass's pipelines, and the state of each view. Draws
/// frames of one or more views in any [`DrawMode`].
pub struct Renderer {
    /// The bind group layouts every pipeline is built on.
    #[doc(hidden)]
    pub layouts: Arc<Layouts>,
    /// The cull pass's pipelines.
    #[doc(hidden)]
    pub cull: CullPass,
    /// The build pass's pipelines.
    #[doc(hidden)]
    pub build: BuildPass,
    /// The blend sort's pipeline.
    blend: BlendSortPass,
    /// The main pass's pipelines (one per variant).
    #[doc(hidden)]
    pub main: MainPass,
    /// The depth pyramid's pipelines; each view builds its own pyramid ([`Renderer::pyramid`]).
    pyramid: PyramidPass,
    /// Copies object records changed between frames into place, first in the frame.
    #[doc(hidden)]
    pub scatter: ScatterPass,
    /// The shadow cascades' depth pass's pipelines.
    shadow: ShadowPass,
    /// Wall-clock frame times the caller reported (`report_frame_time`), newest last.
    reported_times: std::collections::VecDeque<(u64, f64)>,
    /// The adapter's kind: where each view's adaptive frame starts depends on it
    /// (`Renderer::auto_start`).
    device_type: wgpu::DeviceType,
    /// Prefilters each scene's sky into the maps of its image-based light, at upload.
    environment: EnvironmentPass,
    /// The maps prefiltered from `scene_environment`'s sky, bound with the scene's textures.
    environment_maps: EnvironmentMaps,
    /// The scene's sky, exposure and tone mapping.
    scene_environment: Environment,
    /// The scene's sun: its light, and the direction its shadows fall.
    sun: Sun,
    /// A box holding every object wherever it moves (`None` for an empty scene): how far toward
    /// the sun the cascades reach for casters, and how deep into the view shadows go.
    scene_bounds: Option<SceneBounds>,
    /// The compute rasteriser's pipelines for small objects; `None` where the adapter lacks
    /// 64-bit atomics, the scene's arena cannot be bound as storage, or the options turn it
    /// off. Each view rasterises into its own visibility buffer ([`Renderer::raster`]).
    #[doc(hidden)]
    pub raster: Option<RasterPass>,
    /// Deferred shading's pipelines (`passes::deferred`); `None` where the adapter lacks
    /// `primitive_index`, the arenas cannot be bound as storage, the scene's triangles do not
    /// fit 32-bit ids, or the options turn it off (then the main pass shades every fragment).
    /// Each view has its own targets.
    deferred: Option<DeferredPass>,
    /// What each variant's pipeline reads (`SurfaceInputs`), as the main pass was compiled.
    inputs: [SurfaceInputs; Variant::ALL.len()],
    /// The options asked for every input (`RendererOptions::optional_inputs`): a new scene
    /// keeps them.
    all_inputs: bool,
    /// The object records changed since the last frame ([`Renderer::set_object`]).
    updates: ObjectUpdates,
    /// The scene's buffers, shared by every view.
    #[doc(hidden)]
    pub buffers: SceneBuffers,
    /// The scene in GPU order; its object indices are the ids every pass uses.
    #[doc(hidden)]
    pub prepared: PreparedScene,
    /// Records of `prepared.objects` the compute rasteriser may draw (`SOFT_BIT`), kept by
    /// [`Renderer::set_object`]: with none (a live scene's objects all go to the hardware) no
    /// frame runs the rasteriser, and none says it did.
    soft_records: u32,
    /// What each mode records on this adapter, by `DrawMode as usize`.
    plans: [FramePlan; DrawMode::ALL.len()],
    /// Per-frame GPU pass times; `None` without `TIMESTAMP_QUERY`.
    timer: Option<GpuTimer>,
    /// Each view's state, by view index; grows to the most views a frame has rendered.
    views: Vec<ViewState>,
    /// Number of the next frame; readbacks are matched to frames by it.
    frame_number: u64,
    /// Frames whose readbacks have partly arrived.
    pending: Vec<FrameReadback>,
    /// What start-up cost.
    pub startup: StartupTimes,
}

impl Renderer {
    /// A renderer with default options: prewarmed, default workgroup size.
    pub fn new(ctx: &GpuContext, scene: &Scene, color_format: wgpu::TextureFormat) -> Result<Self, RendererError> {
        Self::with_options(ctx, scene, &RendererOptions::new(color_format))
    }

    /// A renderer whose cull and build passes run `workgroup_size` threads per workgroup.
    pub fn with_workgroup_size(
        ctx: &GpuContext,
        scene: &Scene,
        color_format: wgpu::TextureFormat,
        workgroup_size: u32,
    ) -> Result<Self, RendererError> {
        Self::with_options(ctx, scene, &RendererOptions { workgroup_size, ..RendererOptions::new(color_format) })
    }

    /// Gets the pipelines (compiled on worker threads, each pass's in parallel) while the
    /// scene is prepared and uploaded on this one, then prewarms where the options say so.
    pub fn with_options(ctx: &GpuContext, scene: &Scene, options: &RendererOptions) -> Result<Self, RendererError> {
        profile_function!();
        let start = Instant::now();
        check_scene(scene, &ctx.limits)?;
        let layouts = Layouts::shared(&ctx.device, &ctx.pipelines);
        let (passes, prepared, buffers, pipelines_ms, upload_ms) = crate::threads::scope(|scope| {
            let compile = scope.spawn(|| {
                let start = Instant::now();
                let deferred = options.deferred && ctx.device.features().contains(deferred::FEATURES);
                let (cull, build, main, pyramid, scatter, raster, shadow, blend, composite) =
                    crate::threads::scope(|passes| {
                        let cull = passes.spawn(|| CullPass::new(&ctx.pipelines, &layouts, options.workgroup_size));
                        let build = passes.spawn(|| BuildPass::new(&ctx.pipelines, &layouts, options.workgroup_size));
                        let blend =
                            passes.spawn(|| BlendSortPass::new(&ctx.pipelines, &layouts, options.workgroup_size));
                        let pyramid = passes.spawn(|| PyramidPass::new(&ctx.device, &ctx.pipelines, &layouts));
                        let scatter =
                            passes.spawn(|| ScatterPass::new(&ctx.pipelines, &layouts, options.workgroup_size));
                        let shadow = passes.spawn(|| ShadowPass::new(&ctx.pipelines, &layouts));
                        let raster = passes.spawn(|| {
                            let soft = options.soft_raster && ctx.device.features().contains(raster::FEATURES);
                            soft.then(|| {
                                let (format, device_type) = (options.color_format, ctx.info.device_type);
                                RasterPass::new(&ctx.device, &ctx.pipelines, &layouts, format, device_type)
                            })
                            .transpose()
                        });
                        let composite = passes.spawn(|| {
                            deferred
                                .then(|| DeferredPass::new(&ctx.device, &ctx.pipelines, &layouts, options.color_format))
                                .transpose()
                        });
                        let inputs = if options.optional_inputs {
                            [SurfaceInputs::ALL; Variant::ALL.len()]
                        } else {
                            SurfaceInputs::of_scene(scene)
                        };
                        let flags = deferred.then(|| main::deferrable_variants(scene));
                        let main = MainPass::new(&ctx.pipelines, &layouts, options.color_format, inputs, flags)
                            .map(|main| (main, inputs));
                        let joined = "pipeline compilation thread panicked";
                        let (cull, build) = (cull.join().expect(joined), build.join().expect(joined));
                        let (pyramid, scatter) = (pyramid.join().expect(joined), scatter.join().expect(joined));
                        let (raster, shadow) = (raster.join().expect(joined), shadow.join().expect(joined));
                        let (blend, composite) = (blend.join().expect(joined), composite.join().expect(joined));
                        (cull, build, main, pyramid, scatter, raster, shadow, blend, composite)
                    });
                (
                    (cull, build, main, pyramid, scatter, raster, shadow, blend, composite),
                    start.elapsed().as_secs_f64() * 1e3,
                )
            });
            let upload_start = Instant::now();
            let prepared = prepare(scene);
            // The environment's maps are bound with the scene's textures: its three small
            // pipelines are compiled here, ahead of the upload.
            let uploaded = EnvironmentPass::new(&ctx.pipelines, &layouts).map(|environment| {
                let maps = environment.prefilter(&ctx.device, &ctx.queue, &layouts, &scene.environment);
                let buffers = SceneBuffers::upload(&ctx.device, &ctx.queue, &layouts, scene, &prepared, &maps);
                (environment, maps, buffers)
            });
            let upload_ms = upload_start.elapsed().as_secs_f64() * 1e3;
            let (passes, pipelines_ms) = compile.join().expect("pipeline compilation thread panicked");
            (passes, prepared, uploaded, pipelines_ms, upload_ms)
        });
        let (environment, environment_maps, buffers) = buffers?;
        let (cull, build, (main, inputs), pyramid, scatter) = (passes.0?, passes.1?, passes.2?, passes.3?, passes.4?);
        let (shadow, blend) = (passes.6?, passes.7?);
        // Both shade from the arenas, which must be bindable as storage, and deferred shading
        // names triangles with 32-bit ids: where the scene does not allow it, a deferred
        // renderer's main pass is compiled again, forward.
        let raster = passes.5?.filter(|_| buffers.soft_buffers);
        let deferred = passes.8?.filter(|_| buffers.defers());
        let main = match deferred {
            None if main.deferred() => MainPass::new(&ctx.pipelines, &layouts, options.color_format, inputs, None)?,
            _ => main,
        };
        let updates = ObjectUpdates::new(&ctx.device, &layouts, &buffers, options.workgroup_size);
        let capabilities = Capabilities::of(ctx);
        let soft_count = soft_records(&prepared.objects);
        let first_view = ViewState {
            auto: adapt::AutoDetail::for_adapter(ctx.info.device_type, soft_count),
            ..ViewState::new(&ctx.device, &layouts, &buffers, &pyramid, raster.as_ref(), deferred.as_ref())
        };
        let mut renderer = Self {
            timer: GpuTimer::for_adapter(&ctx.device, &ctx.queue, ctx.info.device_type),
            plans: DrawMode::ALL.map(|mode| FramePlan::resolve(mode, capabilities)),
            layouts,
            cull,
            build,
            blend,
            main,
            pyramid,
            scatter,
            shadow,
            environment,
            environment_maps,
            scene_environment: scene.environment,
            sun: scene.sun,
            scene_bounds: SceneBounds::of_objects(&prepared.objects),
            raster,
            deferred,
            inputs,
            all_inputs: options.optional_inputs,
            updates,
            buffers,
            soft_records: soft_count,
            prepared,
            views: vec![first_view],
            reported_times: std::collections::VecDeque::new(),
            device_type: ctx.info.device_type,
            frame_number: 0,
            pending: Vec::new(),
            startup: StartupTimes { pipelines_ms, upload_ms, prewarm_ms: 0.0, total_ms: 0.0 },
        };
        if options.prewarm {
            renderer.prewarm(ctx);
        }
        renderer.startup.total_ms = start.elapsed().as_secs_f64() * 1e3;
        Ok(renderer)
    }

    /// Runs every pipeline once on `ctx`'s queue into a 1×1 target and waits
    /// (`frame::prewarm`); returns the milliseconds it took (also in
    /// [`Renderer::startup`]). [`Renderer::with_options`] calls it when its options say so; a
    /// renderer made without calls it when its caller chooses (before the first frame).
    pub fn prewarm(&mut self, ctx: &GpuContext) -> f64 {
        let view = &mut self.views[0];
        let passes = prewarm::Passes {
            cull: &self.cull,
            build: &self.build,
            blend: &self.blend,
            main: &self.main,
            shadow: &self.shadow,
            scatter: (&self.scatter, &self.updates),
        };
        let ms = prewarm::prewarm(ctx, &passes, &self.layouts, &self.buffers, view);
        self.startup.prewarm_ms = ms;
        ms
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
        // The sky is prefiltered again only when it changed (a live scene re-uploads often).
        if scene.environment != self.scene_environment {
            self.environment_maps =
                self.environment.prefilter(&ctx.device, &ctx.queue, &self.layouts, &scene.environment);
            self.scene_environment = scene.environment;
        }
        self.buffers =
            SceneBuffers::upload(&ctx.device, &ctx.queue, &self.layouts, scene, &prepared, &self.environment_maps);
        self.updates.rebind(&ctx.device, &self.layouts, &self.buffers);
        if !self.buffers.soft_buffers {
            self.raster = None;
        }
        if !self.buffers.defers() && self.deferred.take().is_some() {
            let forward = MainPass::new(&ctx.pipelines, &self.layouts, self.main.color_format, self.inputs, None);
            self.main = forward.map_err(|e| UploadError::MainPipelines(e.to_string()))?;
        }
        // The main pass's pipelines read what the new scene's materials read, and a deferred
        // variant shades only materials the shade dispatch can: compiled again (not in a
        // frame) where the new scene needs other ones.
        let inputs =
            if self.all_inputs { [SurfaceInputs::ALL; Variant::ALL.len()] } else { SurfaceInputs::of_scene(scene) };
        let flags = self.deferred.as_ref().map(|_| main::deferrable_variants(scene));
        if inputs != self.inputs || flags.is_some_and(|flags| !self.main.defers_as(flags, inputs)) {
            let main = MainPass::new(&ctx.pipelines, &self.layouts, self.main.color_format, inputs, flags);
            self.main = main.map_err(|e| UploadError::MainPipelines(e.to_string()))?;
            self.inputs = inputs;
        }
        for view in &mut self.views {
            view.rebind(&ctx.device, &self.layouts, &self.buffers);
            if self.raster.is_none() {
                view.raster = None;
            }
            if self.deferred.is_none() {
                view.deferred = None;
            }
        }
        self.soft_records = soft_records(&prepared.objects);
        self.scene_bounds = SceneBounds::of_objects(&prepared.objects);
        self.sun = scene.sun;
        self.prepared = prepared;
        Ok(())
    }

    /// Replaces object `id`'s record (an index of `prepared.objects`, as every pass numbers
    /// objects): the host copy the cpu and bundle modes cull from at once, the GPU's by the
    /// next frame's scatter pass (`passes::scatter`). The cost is the record's, whatever the
    /// scene's size.
    pub fn set_object(&mut self, id: u32, record: GpuObject) {
        let old = std::mem::replace(&mut self.prepared.objects[id as usize], record);
        self.soft_records = self.soft_records - is_soft_record(&old) as u32 + is_soft_record(&record) as u32;
        // The bounds only grow: an object that left them still casts, one that moved in casts too.
        self.scene_bounds = SceneBounds::grown(self.scene_bounds, &record);
        self.updates.set(id, record);
        self.invalidate_bundle();
    }

    /// Uploads the records set since the last frame in one `write_buffer` (each id once);
    /// the next frame's scatter pass copies them into place. Every frame does this before it
    /// records; calling it earlier times the upload apart from the frame.
    pub fn flush_object_updates(&mut self, ctx: &GpuContext) -> UploadStats {
        self.updates.flush(&ctx.device, &ctx.queue, &self.layouts, &self.buffers, &self.prepared.objects)
    }

    /// Whether the adapter has timestamps, so [`FrameReadback::gpu`] arrives.
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

    /// Views whose state the renderer holds: the most any frame has rendered, at least one.
    pub fn view_count(&self) -> usize {
        self.views.len()
    }

    /// View `view`'s depth pyramid (built by its two-phase frames).
    pub fn pyramid(&self, view: usize) -> &PyramidPass {
        &self.views[view].pyramid
    }

    /// Whether the renderer shades its opaque variants' pixels after the main pass
    /// (`passes::deferred`): the adapter has `primitive_index`, the arenas can be bound as
    /// storage, the scene's triangles have 32-bit ids and the options asked for it.
    pub fn deferred_shading(&self) -> bool {
        self.deferred.is_some()
    }

    /// View `view`'s compute rasteriser, with its visibility buffer once a frame has drawn.
    pub fn raster(&self, view: usize) -> Option<&RasterPass> {
        self.views[view].raster.as_ref()
    }

    /// Forgets the recorded bundles so the next bundle frame records fresh ones.
    pub fn invalidate_bundle(&mut self) {
        for view in &mut self.views {
            view.bundle = None;
            for cascade in view.shadow.iter_mut().flat_map(|s| s.cascades.iter_mut()) {
                cascade.bundle = None;
            }
        }
    }

    /// View `view`'s shadow cascades as its last frame fitted them (none without shadows).
    pub fn cascades(&self, view: usize) -> &[shadows::Cascade] {
        self.views.get(view).and_then(|v| v.shadow.as_ref()).map_or(&[], |s| &s.fitted)
    }

    /// Layer `cascade` of view `view`'s shadow map as its last frame drew it: its side in
    /// texels and its depths (0 toward the sun, 1 the far end), row by row from the top.
    /// `None` where the view has no such cascade. Waits for the GPU.
    pub fn read_shadow_map(&self, ctx: &GpuContext, view: usize, cascade: usize) -> Option<(u32, Vec<f32>)> {
        let shadow = self.views.get(view)?.shadow.as_ref().filter(|s| cascade < s.map.layers())?;
        let depths = crate::gpu::target::read_depth_layer(&ctx.device, &ctx.queue, &shadow.map.texture, cascade as u32);
        Some((shadow.map.size, depths))
    }

    /// The scene's sun.
    pub fn sun(&self) -> Sun {
        self.sun
    }

    /// Sets the sun that lights the scene and casts its shadows.
    pub fn set_sun(&mut self, sun: Sun) {
        self.sun = sun;
        self.invalidate_bundle();
    }

    /// What `view` of a frame of `input` records, and why: [`FramePlan::schedule`] with what
    /// the renderer knows (a compute rasteriser and objects for it; whether the view's pyramid
    /// still holds `depth` at `width` × `height`, for frozen culling).
    fn schedule(&self, input: &FrameInput, view: &View, pyramid_current: bool) -> ViewSchedule {
        self.plan(input.mode).schedule(&ViewRequest {
            detail: view.detail,
            cull_enabled: input.cull_enabled,
            frozen: view.cull_camera.is_some(),
            raster_available: self.raster.is_some() && self.soft_records > 0,
            pyramid_current,
            blend: self.buffers.blend_capacity > 0,
            deferred: self.deferred.is_some() && view.detail.deferred,
        })
    }

    /// Whether a frame of `input` draws its small objects with the compute rasteriser: the
    /// renderer has one, the scene has objects it can draw, the mode culls into batches,
    /// `input.detail.soft` asks for it, and the drawing camera is the culling one (frozen
    /// culling judges sizes from another camera).
    pub fn soft_raster(&self, input: &FrameInput) -> bool {
        self.schedule(input, &View::of_input(input), false).soft
    }

    /// Whether a frame of `input` runs two culling phases.
    pub fn two_phase(&self, input: &FrameInput) -> bool {
        self.schedule(input, &View::of_input(input), false).two_phase()
    }

    /// Records and submits one frame of `input`'s one view.
    pub fn render(&mut self, ctx: &GpuContext, target: &FrameTarget<'_>, input: &FrameInput) -> FrameStats {
        self.render_views(ctx, target, input, &[View::of_input(input)])
    }

    /// Records and submits one frame of `views`, in order, into `target` (each view into its
    /// viewport, or all of it): every view culls, picks its levels, tests occlusion against
    /// its own pyramid and draws on its own. `input` gives the frame's mode, time and debug
    /// views; its camera and detail are not read. At most `tunables::MAX_VIEWS` views.
    pub fn render_views(
        &mut self,
        ctx: &GpuContext,
        target: &FrameTarget<'_>,
        input: &FrameInput,
        views: &[View],
    ) -> FrameStats {
        #[cfg(feature = "profiling")]
        let tag = if puffin::are_scopes_on() { self.next_tag(input.mode).to_string() } else { String::new() };
        profile_scope!("render", &tag);
        let record_start = Instant::now();
        let (command_buffer, mut stats, finish_start) = {
            profile_scope!("record");
            let encoder = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
            let (encoder, stats) = self.record_into(ctx, encoder, target, input, views);
            // wgpu 27 encodes the recorded commands into the driver's command buffer here.
            profile_scope!("finish");
            let finish_start = Instant::now();
            (encoder.finish(), stats, finish_start)
        };
        stats.finish_ms = finish_start.elapsed().as_secs_f64() * 1e3;
        stats.record_ms = record_start.elapsed().as_secs_f64() * 1e3;

        let submit_start = Instant::now();
        {
            profile_scope!("submit", &tag);
            ctx.queue.submit([command_buffer]);
        }
        stats.submit_ms = submit_start.elapsed().as_secs_f64() * 1e3;
        self.submitted();
        stats
    }

    /// Records one frame of `views` into the caller's `encoder`; the caller submits it, then
    /// calls [`Renderer::submitted`] so that the frame's counters and pass times are read back
    /// ([`Renderer::collect`]). The same passes and commands as [`Renderer::render_views`].
    pub fn render_into(
        &mut self,
        ctx: &GpuContext,
        encoder: &mut wgpu::CommandEncoder,
        target: &FrameTarget<'_>,
        input: &FrameInput,
        views: &[View],
    ) -> FrameStats {
        profile_scope!("render into");
        let record_start = Instant::now();
        // The caller's encoder is lent to the frame and given back, an unused one standing in
        // meanwhile.
        let stand_in = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("stand-in") });
        let (recorded, mut stats) = self.record_into(ctx, std::mem::replace(encoder, stand_in), target, input, views);
        *encoder = recorded;
        stats.record_ms = record_start.elapsed().as_secs_f64() * 1e3;
        stats
    }

    /// Records the frame's views into `encoder` through a [`FrameEncoder`] (which owns it
    /// while the passes, borrowing the renderer, record), with the timer lent to it, then the
    /// timestamps' resolve; gives the encoder back with the frame's stats and commands.
    fn record_into(
        &mut self,
        ctx: &GpuContext,
        encoder: wgpu::CommandEncoder,
        target: &FrameTarget<'_>,
        input: &FrameInput,
        views: &[View],
    ) -> (wgpu::CommandEncoder, FrameStats) {
        profile_scope!("encode");
        let mut timer = self.timer.take();
        let mut frame_encoder = FrameEncoder::new_with(encoder, timer.as_mut());
        let mut stats = self.record_frame(ctx, &mut frame_encoder, target, input, views);
        let FrameEncoder { mut encoder, timer: frame_timer, commands, indirect_slots } = frame_encoder;
        stats.commands = commands;
        stats.indirect_slots = indirect_slots;
        if let Some(frame_timer) = frame_timer {
            frame_timer.resolve(&mut encoder, stats.frame);
        }
        self.timer = timer;
        (encoder, stats)
    }

    /// Call after submitting the encoder a [`Renderer::render_into`] recorded into: maps the
    /// frame's readbacks. ([`Renderer::render`] calls it itself.)
    pub fn submitted(&mut self) {
        for view in &mut self.views {
            view.counters.submitted();
            for cascade in view.shadow.iter_mut().flat_map(|s| s.cascades.iter_mut()) {
                cascade.counters.submitted();
            }
        }
        if let Some(timer) = self.timer.as_mut() {
            timer.submitted();
        }
    }

    /// GPU results (visible counts, pass times) of frames that have finished, oldest first.
    /// Never blocks; call [`GpuContext::wait_idle`] first to get everything submitted so far.
    pub fn collect(&mut self, device: &wgpu::Device) -> Vec<FrameReadback> {
        profile_scope!("collect readbacks");
        for index in 0..self.views.len() {
            for (frame, counters) in self.views[index].counters.collect(device) {
                let entry = self.entry(frame);
                entry.view_counters[index] = Some(counters);
                if index == 0 {
                    entry.visible = Some(counters.visible);
                    entry.counters = Some(counters);
                }
            }
            let cascades = self.views[index].shadow.as_ref().map_or(0, |s| s.cascades.len());
            for k in 0..cascades {
                let shadow = self.views[index].shadow.as_mut().expect("counted above");
                let arrived = shadow.cascades[k].counters.collect(device);
                for (frame, counters) in arrived {
                    self.entry(frame).cascade_counters[index][k] = Some(counters);
                }
            }
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
        // The adaptive frame learns from every frame read back, whoever asked for it.
        for readback in &done {
            let cost = if self.reported_times.is_empty() {
                readback.gpu.map(|g| g.total())
            } else {
                self.reported_times.iter().find(|(f, _)| *f == readback.frame).map(|&(_, ms)| ms)
            };
            for (index, view) in self.views.iter_mut().enumerate() {
                let cascades = readback.cascade_counters[index].iter().flatten();
                let hidden = cascades.map(|c| c.occluded).reduce(|a, b| a + b);
                view.auto.observe(readback.frame, readback.view_counters[index].as_ref(), hidden, cost);
            }
        }
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
