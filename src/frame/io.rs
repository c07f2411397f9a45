//! What a frame takes ([`FrameInput`]) and gives back ([`FrameStats`] when it is recorded,
//! [`FrameReadback`] when the GPU's results arrive), and how a renderer is built
//! ([`RendererOptions`], [`StartupTimes`]).

use crate::gpu::commands::FrameCommands;
use crate::gpu::timer::GpuPassTimes;
use crate::passes::cull::cpu::CpuCounts;
use crate::passes::cull::GpuCounters;
use crate::passes::main::indirect::IndirectCall;
use crate::scene::Camera;
use crate::tunables::{MAX_CASCADES, MAX_VIEWS, WORKGROUP_SIZE};

use super::{Detail, DrawMode};

/// What one frame should show. `camera`, `cull_camera` and `detail` are the frame's view for
/// [`Renderer::render`](super::Renderer::render);
/// [`Renderer::render_views`](super::Renderer::render_views) takes the views apart
/// ([`View`](super::View)) and reads the rest from here.
#[derive(Clone, Copy, Debug)]
pub struct FrameInput {
    /// The camera the frame draws from.
    pub camera: Camera,
    /// Camera whose frustum culls; `None` culls with `camera` (set it to freeze culling).
    pub cull_camera: Option<Camera>,
    /// Animation time in seconds.
    pub time: f32,
    /// How the draws are written.
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
    /// Tint every surface by the shadow cascade that covers it (debug view).
    pub cascade_colors: bool,
    /// Shadow cascades of the sun per view (0 to `tunables::MAX_CASCADES`; 0: no shadows).
    /// [`FrameInput::new`] leaves them off; the command line's `--shadows` turns them on.
    pub shadows: u32,
}

impl FrameInput {
    /// A frame of `camera` in `mode` at time 0, culled, with the default detail.
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
            cascade_colors: false,
            shadows: 0,
        }
    }

    /// This frame with `cascades` shadow cascades per view (clamped to
    /// `tunables::MAX_CASCADES`).
    pub fn with_shadows(self, cascades: u32) -> Self {
        Self { shadows: cascades.min(MAX_CASCADES as u32), ..self }
    }
}

/// CPU-side facts of one recorded frame.
#[derive(Clone, Copy, Debug)]
pub struct FrameStats {
    /// The frame's number ([`Renderer::next_frame`](super::Renderer::next_frame) before it was
    /// recorded).
    pub frame: u64,
    /// How its draws were written.
    pub mode: DrawMode,
    /// Views the frame rendered.
    pub views: u32,
    /// Commands recorded per pass name (summed over the views).
    pub commands: FrameCommands,
    /// Encoder creation to `finish`, in ms.
    pub record_ms: f64,
    /// The `finish` call alone (where wgpu 27 encodes into the driver's command buffer), in ms.
    pub finish_ms: f64,
    /// CPU frustum culling (cpu mode), in ms, every view's; 0 where the GPU culls.
    pub cpu_cull_ms: f64,
    /// The `submit` call, in ms (0 when the caller submits:
    /// [`Renderer::render_into`](super::Renderer::render_into)).
    pub submit_ms: f64,
    /// Visible objects known on the CPU (cpu and bundle modes; the first view's); GPU modes
    /// report theirs through [`Renderer::collect`](super::Renderer::collect).
    pub cpu_visible: Option<u32>,
    /// What the CPU's culling counted (cpu and bundle modes; the first view's).
    pub cpu_counts: Option<CpuCounts>,
    /// Whether the first view ran two culling phases (occlusion culling).
    pub two_phase: bool,
    /// Whether the first view drew small objects with the compute rasteriser.
    pub soft: bool,
    /// Whether the first view shaded its opaque variants' pixels after the main pass
    /// (`passes::deferred`).
    pub deferred: bool,
    /// Shadow cascades the first view drew (0: no shadows).
    pub shadow_cascades: u32,
    /// Whether the first view's cascades culled in two phases (`Detail::shadow_occlusion`).
    pub shadow_two_phase: bool,
    /// Whether the first view's cascades drew their small casters with the compute rasteriser
    /// (`Detail::shadow_soft`).
    pub shadow_soft: bool,
    /// What the CPU's culling of each of the first view's cascades counted (cpu and bundle
    /// modes).
    pub cascade_counts: [Option<CpuCounts>; MAX_CASCADES],
    /// The multi-draw call the GPU-driven modes used (gpu falls back to gpu-nocount's draws
    /// without the count feature).
    pub indirect: Option<IndirectCall>,
    /// Draw slots of the frame's `multi_draw_indexed_indirect` calls (`_count` calls not
    /// included), summed: what a backend without multi-draw loops over, one draw call each
    /// (WebGPU in the browser).
    pub indirect_slots: u32,
}

/// GPU results of a frame, arriving a frame or two after it was submitted.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameReadback {
    /// The frame's number.
    pub frame: u64,
    /// GPU-counted visible objects of the first view (GPU modes): the objects that pass the
    /// frustum and size tests, the set the CPU baseline draws. Occlusion culling draws a subset
    /// of them.
    pub visible: Option<u32>,
    /// Every GPU counter of the first view (GPU modes).
    pub counters: Option<GpuCounters>,
    /// Every view's GPU counters, by view index (GPU modes).
    pub view_counters: [Option<GpuCounters>; MAX_VIEWS],
    /// The GPU counters of each view's shadow cascades, by view and cascade (GPU modes): what
    /// each cascade's cull found and drew (its casters).
    pub cascade_counters: [[Option<GpuCounters>; MAX_CASCADES]; MAX_VIEWS],
    /// GPU time per pass (where the adapter has timestamps); a pass name that several views
    /// recorded appears once per view.
    pub gpu: Option<GpuPassTimes>,
}

/// How to build a renderer.
#[derive(Clone, Copy, Debug)]
pub struct RendererOptions {
    /// The format of the colour targets the renderer draws into.
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
    /// can.
    pub soft_raster: bool,
    /// Shade the opaque variants' pixels in a compute dispatch after the main pass
    /// (`passes::deferred`) where the adapter can.
    pub deferred: bool,
}

impl RendererOptions {
    /// Prewarmed, the default workgroup size, the compute rasteriser and deferred shading where
    /// the adapter has them, pipelines for the scene's surface inputs only.
    pub fn new(color_format: wgpu::TextureFormat) -> Self {
        Self {
            color_format,
            workgroup_size: WORKGROUP_SIZE,
            prewarm: true,
            optional_inputs: false,
            soft_raster: true,
            deferred: true,
        }
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
