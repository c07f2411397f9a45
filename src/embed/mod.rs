//! The engine inside another wgpu application: [`EmbeddedRenderer`] works on the caller's
//! device and queue, draws a [`LiveScene`] into the caller's colour view and records into the
//! caller's command encoder, which the caller submits. Nothing here opens a window, reads a
//! file or prints.
//!
//! Per frame, [`EmbeddedRenderer::render`] first applies the scene's changes since the last
//! frame ([`LiveSync`]: the changed object records uploaded for the frame's scatter pass, a
//! re-upload when batches change), then records the same passes [`Renderer::render`]
//! records.

#![warn(missing_docs)]

use crate::frame::{Detail, DrawMode, FrameInput, FrameStats, Renderer, RendererError, RendererOptions};
use crate::gpu::context::ContextError;
use crate::gpu::target::{depth_texture, FrameTarget, DEPTH_FORMAT};
use crate::gpu::GpuContext;
use crate::gpu_scene::UploadError;
use crate::live::{ApplyStats, LiveScene, LiveSync};
use crate::mesh::{procedural, MeshArena};
use crate::scene::{Camera, Material, Scene, TextureLayers};

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
}

/// Where a frame goes: the caller's colour view, and a depth view or none (the renderer then
/// keeps a depth buffer of its own, of the colour's size).
pub struct EmbedTarget<'a> {
    /// The colour view, of the format the renderer was made for.
    pub color: &'a wgpu::TextureView,
    /// A [`DEPTH_FORMAT`] view of the same size with `RENDER_ATTACHMENT | TEXTURE_BINDING`
    /// usage, or `None` for the renderer's own.
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
        // No prewarm: it would submit a frame of its own.
        // Live scenes may add meshes with vertex colours later, and change a material under its
        // objects (a texture added), which the compute rasteriser's resolve would not see.
        let options = RendererOptions {
            prewarm: false,
            optional_inputs: true,
            soft_raster: false,
            ..RendererOptions::new(color_format)
        };
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
        profile_function!();
        if !scene.has_meshes_and_materials() {
            return Ok(EmbedFrame { apply: ApplyStats::default(), apply_ms: 0.0, frame: None });
        }
        let start = std::time::Instant::now();
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
        };
        let input = FrameInput { detail: self.detail, ..FrameInput::new(*camera, self.mode) };
        let stats = self.renderer.render_into(&self.ctx, encoder, &frame_target, &input);
        Ok(EmbedFrame { apply, apply_ms, frame: Some(stats) })
    }

    /// Makes the renderer's own depth view, again when the size changes.
    fn fit_own_depth(&mut self, width: u32, height: u32) {
        if !matches!(&self.own_depth, Some((_, w, h)) if (*w, *h) == (width, height)) {
            let texture = depth_texture(&self.ctx.device, width.max(1), height.max(1));
            self.own_depth = Some((texture.create_view(&Default::default()), width, height));
        }
    }

    /// The engine's renderer, for what this API does not wrap (statistics, plans).
    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// The depth format a caller-given depth view must have.
    pub const DEPTH_FORMAT: wgpu::TextureFormat = DEPTH_FORMAT;
}
