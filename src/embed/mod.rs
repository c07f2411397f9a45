//! The engine inside another wgpu application: [`EmbeddedRenderer`] works on the caller's
//! device and queue, draws a [`LiveScene`] into the caller's colour view and records into the
//! caller's command encoder, which the caller submits. Nothing here opens a window, reads a
//! file or prints.
//!
//! Per frame, [`EmbeddedRenderer::render`] first applies the scene's changes since the last
//! frame ([`LiveSync`]: the changed object records uploaded for the frame's scatter pass, a
//! re-upload when batches change), then records the same passes [`Renderer::render`]
//! records, with every feature: occlusion culling, levels of detail, the compute rasteriser
//! where the device has 64-bit atomics. [`EmbeddedRenderer::prewarm`] runs every pipeline
//! once on the caller's queue when the caller chooses; after each submit,
//! [`EmbeddedRenderer::submitted`] lets the frame's counters and GPU pass times come back
//! through [`EmbeddedRenderer::collect`].

#![warn(missing_docs)]

use crate::frame::{
    Detail, DrawMode, FrameInput, FrameReadback, FrameStats, Renderer, RendererError, RendererOptions, View,
};
use crate::gpu::context::ContextError;
use crate::gpu::target::{depth_texture, FrameTarget, DEPTH_FORMAT};
use crate::gpu::GpuContext;
use crate::gpu_scene::UploadError;
use crate::live::{ApplyStats, LiveScene, LiveSync};
use crate::mesh::{procedural, MeshArena};
use crate::scene::{Camera, Material, Scene, TextureLayers};
use crate::tunables::MAX_VIEWS;

/// Why the embedded renderer could not be made or could not draw a frame.
#[derive(Debug, thiserror::Error)]
pub enum EmbedError {
    /// The caller's device lacks a feature or a limit the engine needs.
    #[error(transparent)]
    Device(#[from] ContextError),
    /// A pipeline failed to build.
    #[error(transparent)]
    Renderer(#[from] RendererError),
    /// The scene does not fit the device's limits.
    #[error(transparent)]
    Upload(#[from] UploadError),
    /// A frame asked for no view, or for more than the engine renders at once.
    #[error("a frame renders 1 to {max} views, not {requested}")]
    ViewCount {
        /// Views asked for.
        requested: usize,
        /// The most one frame renders (`tunables::MAX_VIEWS`).
        max: usize,
    },
}

/// Where a frame goes: the caller's colour view, and a depth view or none (the renderer then
/// keeps a depth buffer of its own, of the colour's size).
pub struct EmbedTarget<'a> {
    /// The colour view, of the format the renderer was made for.
    pub color: &'a wgpu::TextureView,
    /// A [`DEPTH_FORMAT`] view of the same size with `RENDER_ATTACHMENT | TEXTURE_BINDING`
    /// usage, or `None` for the renderer's own. A given one holds every opaque pixel's depth
    /// after the frame (`FrameTarget::complete_depth`); with the renderer's own, a colour
    /// texture that can be written as storage gets the cheaper composite in compute.
    pub depth: Option<&'a wgpu::TextureView>,
    /// Width of the views in pixels.
    pub width: u32,
    /// Height of the views in pixels.
    pub height: u32,
    /// Draw over the colour view's contents (the caller's background) rather than clearing it.
    pub keep_color: bool,
}

/// What one [`EmbeddedRenderer::render`] did.
#[derive(Clone, Debug)]
pub struct EmbedFrame {
    /// Applying the scene's changes: bytes uploaded, whether buffers were made again.
    pub apply: ApplyStats,
    /// CPU time of applying the changes, in milliseconds.
    pub apply_ms: f64,
    /// The recorded frame; `None` while the scene has no mesh or no material (nothing drawn).
    pub frame: Option<FrameStats>,
}

/// A renderer on the caller's device, drawing a [`LiveScene`] into the caller's encoder.
pub struct EmbeddedRenderer {
    ctx: GpuContext,
    renderer: Renderer,
    sync: LiveSync,
    /// The renderer's own depth buffer and its size, made when a target without depth comes.
    own_depth: Option<(wgpu::TextureView, u32, u32)>,
    /// How the draws are written (GPU-driven by default).
    pub mode: DrawMode,
    /// Levels of detail, size and occlusion culling.
    pub detail: Detail,
}

/// A scene of one mesh and one material and no object: what the pipelines are made with
/// before the caller's scene has anything.
fn placeholder_scene() -> Scene {
    let mut meshes = MeshArena::default();
    meshes.add("placeholder", procedural::cube()).expect("the cube is well-formed");
    Scene {
        name: "placeholder".into(),
        meshes,
        materials: vec![Material::colored("placeholder", glam::Vec4::ONE)],
        objects: Vec::new(),
        camera: crate::scene::generator::default_camera(1.0),
        sun: crate::scene::Sun::default(),
        environment: crate::scene::Environment::default(),
        animated: false,
        base_color_textures: TextureLayers::default(),
        normal_textures: TextureLayers::default(),
        notes: Vec::new(),
    }
}

impl EmbeddedRenderer {
    /// Makes the renderer's pipelines on the caller's device for colour targets of
    /// `color_format`, sRGB or not: for a unorm format without sRGB encoding (`Rgba8Unorm`,
    /// `Bgra8Unorm`, …) the shaders encode the colour themselves, so the target shows what
    /// the `*Srgb` format would. The device must have been created with
    /// [`REQUIRED_FEATURES`](crate::gpu::context::REQUIRED_FEATURES) and at least
    /// [`REQUIRED_LIMITS`](crate::gpu::context::REQUIRED_LIMITS); otherwise the error names
    /// what is missing.
    pub fn new(
        instance: &wgpu::Instance,
        adapter: &wgpu::Adapter,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        color_format: wgpu::TextureFormat,
    ) -> Result<Self, EmbedError> {
        let ctx = GpuContext::from_device(instance, adapter, device, queue)?;
        // No prewarm here: it submits work of its own, which the caller asks for when it
        // chooses (`prewarm`). Every surface input is compiled: a live scene may add meshes and
        // materials that read any of them.
        let options = RendererOptions { prewarm: false, optional_inputs: true, ..RendererOptions::new(color_format) };
        let renderer = Renderer::with_options(&ctx, &placeholder_scene(), &options)?;
        Ok(Self {
            ctx,
            renderer,
            sync: LiveSync::new(),
            own_depth: None,
            mode: DrawMode::Gpu,
            detail: Detail::default(),
        })
    }

    /// Applies `scene`'s changes, then records one frame of it seen from `camera` into
    /// `encoder`. Call once per submit: the frame's uniforms and the changed object records
    /// are written with `Queue::write_buffer`, which takes effect at the caller's next submit,
    /// and the records are copied into place by the first pass recorded into `encoder`.
    pub fn render(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        scene: &mut LiveScene,
        target: &EmbedTarget<'_>,
        camera: &Camera,
    ) -> Result<EmbedFrame, EmbedError> {
        let view = View { detail: self.detail, ..View::new(*camera) };
        self.render_views(encoder, scene, target, &[view])
    }

    /// As [`EmbeddedRenderer::render`], for several views of the scene, each culled and drawn
    /// on its own into its viewport of the target (at most `tunables::MAX_VIEWS`); the views'
    /// own detail applies, not [`EmbeddedRenderer::detail`].
    pub fn render_views(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        scene: &mut LiveScene,
        target: &EmbedTarget<'_>,
        views: &[View],
    ) -> Result<EmbedFrame, EmbedError> {
        profile_function!();
        if !(1..=MAX_VIEWS).contains(&views.len()) {
            return Err(EmbedError::ViewCount { requested: views.len(), max: MAX_VIEWS });
        }
        if !scene.has_meshes_and_materials() {
            return Ok(EmbedFrame { apply: ApplyStats::default(), apply_ms: 0.0, frame: None });
        }
        let start = crate::clock::Instant::now();
        let apply = self.sync.apply(&self.ctx, &mut self.renderer, scene)?;
        let apply_ms = start.elapsed().as_secs_f64() * 1e3;
        if target.depth.is_none() {
            self.fit_own_depth(target.width, target.height);
        }
        let depth = match (target.depth, &self.own_depth) {
            (Some(depth), _) => depth,
            (None, Some((own, _, _))) => own,
            (None, None) => unreachable!("fitted above"),
        };
        let frame_target = FrameTarget {
            color: target.color,
            depth,
            width: target.width,
            height: target.height,
            keep_color: target.keep_color,
            // A depth buffer the caller gave is theirs to draw over: it holds every pixel.
            complete_depth: target.depth.is_some(),
        };
        let input = FrameInput { detail: self.detail, ..FrameInput::new(views[0].camera, self.mode) };
        let stats = self.renderer.render_into(&self.ctx, encoder, &frame_target, &input, views);
        Ok(EmbedFrame { apply, apply_ms, frame: Some(stats) })
    }

    /// Makes the renderer's own depth view, again when the size changes.
    fn fit_own_depth(&mut self, width: u32, height: u32) {
        if !matches!(&self.own_depth, Some((_, w, h)) if (*w, *h) == (width, height)) {
            let texture = depth_texture(&self.ctx.device, width.max(1), height.max(1));
            self.own_depth = Some((texture.create_view(&Default::default()), width, height));
        }
    }

    /// Runs every pipeline once on the caller's queue and waits for it, so that no driver
    /// compiles anything inside the first frames; returns the milliseconds it took. Call it
    /// once, when the application can wait (a loading screen), before the first frame.
    pub fn prewarm(&mut self) -> f64 {
        self.renderer.prewarm(&self.ctx)
    }

    /// Call after each submit of an encoder [`EmbeddedRenderer::render`] recorded into: the
    /// frame's counters and GPU pass times are then read back, a frame or two later, without
    /// a stall ([`EmbeddedRenderer::collect`]).
    pub fn submitted(&mut self) {
        self.renderer.submitted();
    }

    /// Counters (visible, occluded, drawn, per level, by the compute rasteriser) and GPU pass
    /// times of the frames that have finished, oldest first; never blocks.
    pub fn collect(&mut self) -> Vec<FrameReadback> {
        self.renderer.collect(&self.ctx.device)
    }

    /// The engine's renderer, for what this API does not wrap (plans, start-up times).
    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// The depth format a caller-given depth view must have.
    pub const DEPTH_FORMAT: wgpu::TextureFormat = DEPTH_FORMAT;
}
