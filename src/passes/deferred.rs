//! Deferred shading of the hardware's pixels: where the adapter has `primitive_index`
//! ([`FEATURES`]) and the scene's arenas can be bound as storage, the main pass's opaque,
//! masked and double-sided variants whose materials read neither vertex colours nor a second
//! coordinate set draw only what names each pixel into the `ids` target
//! (`shaders/draw_vis.wgsl`). After the frame's last main pass, pass "shade" lists those pixels
//! (plain and textured apart, `list_drawn` in `shaders/shade_list.wgsl`), sizes and runs the
//! two shade dispatches (`shade_drawn_*` in `shaders/shade.wgsl`, the compute rasteriser's
//! shading function; each colour stored with the pixel's depth), and pass "composite" writes
//! per pixel the nearer of that and the compute rasteriser's pixel, where as near as the depth
//! buffer: a deferred frame does not resolve the compute rasteriser in its last main pass.
//! Where the target's texture can be written as storage ([`storage_view`]) the composite is a
//! dispatch (`shaders/composite.wgsl`), which leaves the compute rasteriser's pixels out of the
//! depth buffer and writes their depth into `soft_depth` for the blended pass; elsewhere it is
//! one full-screen triangle (`fs_composite` in `shaders/resolve.wgsl`) that writes colour and
//! depth. On the H100 the dispatch costs far less than the full-screen pass (docs/BENCHMARKS.md
//! § "The composite in compute"). Forward-shaded fragments write `NO_IDS` into
//! the `ids` target, so every pixel that still names a triangle is one the deferred variants
//! drew last. The composite in compute writes every pixel (the clear colour where nothing was
//! drawn), so the main pass then clears only the depth buffer: a pixel's `ids` are this
//! frame's only where its depth is nearer than the far plane (every fragment that writes depth
//! writes its id or `NO_IDS` with it), and their readers test that. The blended pass follows.
//!
//! Why: on the H200 the main pass's PBR fragments cost 1.5× the Lambert frame, spent on the few
//! graphics units and on every 2 × 2 quad a small triangle touches; the compute rasteriser's
//! pixels, shaded this way, hardly cost more with PBR (docs/BENCHMARKS.md § "Deferred shading
//! of the hardware's pixels"). Recorded commands are constant: one clear, two direct and two
//! indirect dispatches, then one draw or one dispatch.

use crate::gpu::commands::FrameEncoder;
use crate::gpu_scene::layout::{
    Layouts, COMPOSITE_FORMAT, COMPOSITE_IO, FRAME, IDS_FORMAT, RESOLVE_IO, SHADED_FORMAT, SHADE_IO, SHADE_LIST,
    TEXTURES,
};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::{SceneBuffers, ViewBuffers};
use crate::passes::raster::{self, bind_io, list_workgroups, PLAIN_SHADE_ARGUMENTS, TEXTURED_SHADE_ARGUMENTS};
use crate::pipelines::{compute_all, compute_spec, render_all, PipelineCache, PipelineError, RenderSpec};
use crate::tunables::{SHADE_LIST_HEADER, TILE_WORKGROUP_SIDE, WORKGROUP_SIZE};

/// The shading dispatches' wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "shade";
/// The composite pass's name.
pub const COMPOSITE_NAME: &str = "composite";

/// What deferred shading needs of the adapter.
pub const FEATURES: wgpu::Features = crate::gpu::context::DEFERRED_FEATURES;

pub const COMPOSITE_SHADER: PassShader = PassShader {
    file: "shaders/composite.wgsl",
    body: include_str!("../../shaders/composite.wgsl"),
    groups: &[&COMPOSITE_IO],
};

/// A view of `color`'s texture that the composite in compute can write: where the texture is
/// `COMPOSITE_FORMAT` (viewed as its sRGB twin or as itself) with `STORAGE_BINDING`, one mip
/// level and one layer. `None` for any other target: the full-screen composite draws into it.
pub fn storage_view(color: &wgpu::TextureView) -> Option<wgpu::TextureView> {
    let texture = color.texture();
    let writable = texture.format() == COMPOSITE_FORMAT
        && texture.usage().contains(wgpu::TextureUsages::STORAGE_BINDING)
        && texture.mip_level_count() == 1
        && texture.depth_or_array_layers() == 1
        && texture.dimension() == wgpu::TextureDimension::D2;
    writable.then(|| {
        texture.create_view(&wgpu::TextureViewDescriptor {
            label: Some("composite colour"),
            format: Some(COMPOSITE_FORMAT),
            usage: Some(wgpu::TextureUsages::STORAGE_BINDING),
            ..Default::default()
        })
    })
}

/// The `ids` target, the list and the shaded colours of one target size, and the bind groups
/// over them, the frame's depth and the compute rasteriser's pixels.
struct Targets {
    width: u32,
    height: u32,
    /// What the bind groups bind of the frame: its depth buffer, and the compute rasteriser's
    /// visibility buffer and colours (or the stand-ins).
    depth: wgpu::TextureView,
    soft: (wgpu::Buffer, wgpu::TextureView),
    ids: wgpu::TextureView,
    list: wgpu::Buffer,
    list_group: wgpu::BindGroup,
    shade_group: wgpu::BindGroup,
    composite_group: wgpu::BindGroup,
    /// The shaded colours (the composite's `drawn`).
    shaded: wgpu::TextureView,
    /// The compute rasteriser's depth where its pixel won, written by the composite in compute
    /// (R32Float; the view's frame group binds it for the blended pass).
    soft_depth: wgpu::TextureView,
    /// The target colour view the composite in compute last wrote, and its bind group.
    output: Option<(wgpu::TextureView, wgpu::BindGroup)>,
}

pub struct DeferredPass {
    list_drawn: wgpu::ComputePipeline,
    list_arguments: wgpu::ComputePipeline,
    shade: wgpu::ComputePipeline,
    shade_textured: wgpu::ComputePipeline,
    composite: wgpu::RenderPipeline,
    /// The composite in compute, for targets with a [`storage_view`].
    composite_compute: wgpu::ComputePipeline,
    /// What the composite binds where the renderer has no compute rasteriser: an 8-byte
    /// visibility buffer and a 1×1 texture of colours (`frame.soft_enabled` is 0 then).
    no_soft: (wgpu::Buffer, wgpu::TextureView),
    /// Fitted by [`DeferredPass::fit`]; `None` until then and after the scene's buffers change.
    targets: Option<Targets>,
}

impl DeferredPass {
    /// Gets the pipelines from the cache; the composite draws into targets of `color_format`.
    pub fn new(
        device: &wgpu::Device,
        cache: &PipelineCache,
        layouts: &Layouts,
        color_format: wgpu::TextureFormat,
    ) -> Result<Self, PipelineError> {
        let list_shader = raster::SHADE_LIST_SHADER.spec(WORKGROUP_SIZE);
        let shade_shader = raster::SHADE_SHADER.spec(WORKGROUP_SIZE);
        let specs = [
            compute_spec("shade list drawn", &layouts.shade_list, &list_shader, "list_drawn"),
            compute_spec("shade list arguments", &layouts.shade_list, &list_shader, "list_arguments"),
            compute_spec("shade drawn", &layouts.shade, &shade_shader, "shade_drawn_plain"),
            compute_spec("shade drawn textured", &layouts.shade, &shade_shader, "shade_drawn_textured"),
            compute_spec(COMPOSITE_NAME, &layouts.composite, &COMPOSITE_SHADER.spec(WORKGROUP_SIZE), "composite"),
        ];
        let mut computes = compute_all(cache, &specs).into_iter();
        let composite_spec = RenderSpec {
            constants: Default::default(),
            label: COMPOSITE_NAME.into(),
            layout: layouts.resolve.clone(),
            shader: raster::RESOLVE_SHADER.spec(WORKGROUP_SIZE),
            vertex_entry: "vs_fullscreen".into(),
            fragment_entry: Some("fs_composite".into()),
            vertex_buffers: Vec::new(),
            targets: vec![Some(wgpu::ColorTargetState {
                format: color_format,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
            primitive: wgpu::PrimitiveState::default(),
            // The depth of the pixel's colour: the hardware's where a deferred triangle won it,
            // the compute rasteriser's where that is as near or nearer than the depth buffer
            // (as its resolve writes it in a forward frame).
            depth_stencil: Some(wgpu::DepthStencilState {
                depth_compare: wgpu::CompareFunction::LessEqual,
                ..crate::gpu::target::depth_test()
            }),
            multisample: Default::default(),
        };
        let composite = render_all(cache, &[composite_spec]).into_iter().next().expect("one result per spec");
        let mut compute = || computes.next().expect("one result per spec");
        let no_pixels = crate::gpu::counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("no visibility buffer"),
                size: 8,
                usage: wgpu::BufferUsages::STORAGE,
                mapped_at_creation: false,
            },
        );
        Ok(Self {
            list_drawn: compute()?,
            list_arguments: compute()?,
            shade: compute()?,
            shade_textured: compute()?,
            composite_compute: compute()?,
            composite: composite?,
            no_soft: (no_pixels, crate::gpu_scene::buffers::placeholder(device, "no soft shaded", SHADED_FORMAT)),
            targets: None,
        })
    }

    /// The same pipelines and no targets yet: what a view starts with.
    pub fn for_view(&self) -> Self {
        Self {
            list_drawn: self.list_drawn.clone(),
            list_arguments: self.list_arguments.clone(),
            shade: self.shade.clone(),
            shade_textured: self.shade_textured.clone(),
            composite: self.composite.clone(),
            composite_compute: self.composite_compute.clone(),
            no_soft: self.no_soft.clone(),
            targets: None,
        }
    }

    /// Makes the `ids` target, the list and the shaded colours for a `width` × `height`
    /// target, and the bind groups over them, `buffers`, the frame's `depth` buffer and the
    /// compute rasteriser's pixels (`raster`, fitted to the same size, where the renderer has
    /// one), unless they fit already.
    pub fn fit(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        buffers: &SceneBuffers,
        target: (&wgpu::TextureView, u32, u32),
        raster: Option<&crate::passes::raster::RasterPass>,
    ) {
        let (depth, width, height) = target;
        let soft = match raster {
            Some(raster) => (raster.visibility_buffer(), raster.shaded()),
            None => (&self.no_soft.0, &self.no_soft.1),
        };
        let fits =
            |t: &Targets| (t.width, t.height) == (width, height) && t.depth == *depth && (&t.soft.0, &t.soft.1) == soft;
        if self.targets.as_ref().is_some_and(fits) {
            return;
        }
        let (w, h) = (width.max(1), height.max(1));
        let texture = |label, format, usage| {
            device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
                    mip_level_count: 1,
                    sample_count: 1,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage,
                    view_formats: &[],
                })
                .create_view(&Default::default())
        };
        // COPY_SRC: tests read it back.
        let ids_usage = wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC;
        let ids = texture("ids", IDS_FORMAT, ids_usage);
        let shaded_usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING;
        let shaded = texture("deferred shaded", SHADED_FORMAT, shaded_usage);
        let list = raster::shade_list_buffer(device, "deferred shade list", w, h);
        let named = raster::scene_bindings(buffers, soft.0, &list);
        // The shade dispatch writes the deferred pixels' `shaded`; the composite reads them as
        // `drawn`, and the compute rasteriser's as `shaded`.
        let shading = [("shaded", &shaded), ("ids", &ids), ("depth", depth)];
        let list_group = bind_io(device, &SHADE_LIST, &layouts.shade_list_io, &named, &shading);
        let shade_group = bind_io(device, &SHADE_IO, &layouts.shade_io, &named, &shading);
        let compositing = [("shaded", soft.1), ("drawn", &shaded), ("ids", &ids)];
        let composite_group = bind_io(device, &RESOLVE_IO, &layouts.resolve_io, &named, &compositing);
        let soft_depth_usage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING;
        let soft_depth = texture("soft depth", wgpu::TextureFormat::R32Float, soft_depth_usage);
        let (depth, soft) = (depth.clone(), (soft.0.clone(), soft.1.clone()));
        self.targets = Some(Targets {
            width,
            height,
            depth,
            soft,
            ids,
            list,
            list_group,
            shade_group,
            composite_group,
            shaded,
            soft_depth,
            output: None,
        });
    }

    /// Readies the composite in compute for the colour view `color` of the fitted target, with
    /// the view's uniforms `frame`, where `color`'s texture allows it ([`storage_view`]); `None`
    /// for the full-screen pass. Returns whether this frame's composite runs in compute. Call
    /// after [`DeferredPass::fit`].
    pub fn fit_output(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        color: Option<&wgpu::TextureView>,
        frame: &wgpu::Buffer,
    ) -> bool {
        let targets = self.targets.as_mut().expect("fit before fit_output");
        if targets.output.as_ref().is_some_and(|(view, _)| Some(view) == color) {
            return true;
        }
        targets.output = None;
        let Some(color) = color else {
            return false;
        };
        let size = color.texture().size();
        if (size.width, size.height) != (targets.width, targets.height) {
            return false;
        }
        let Some(storage) = storage_view(color) else {
            return false;
        };
        let named = [("frame", frame), ("pixels", &targets.soft.0)];
        let textures = [
            ("shaded", &targets.soft.1),
            ("ids", &targets.ids),
            ("drawn", &targets.shaded),
            ("depth", &targets.depth),
            ("color", &storage),
            ("soft_depth_out", &targets.soft_depth),
        ];
        let group = bind_io(device, &COMPOSITE_IO, &layouts.composite_io, &named, &textures);
        targets.output = Some((color.clone(), group));
        true
    }

    /// Whether the composite into `color` runs in compute ([`DeferredPass::fit_output`]
    /// readied it): then it writes every pixel's colour, and the main pass clears neither
    /// colour nor `ids` (`MainPass::record`).
    pub fn composites_in_compute(&self, color: &wgpu::TextureView) -> bool {
        self.output_group(color).is_some()
    }

    fn output_group(&self, color: &wgpu::TextureView) -> Option<&wgpu::BindGroup> {
        let output = self.targets.as_ref().and_then(|targets| targets.output.as_ref());
        output.filter(|(view, _)| view == color).map(|(_, group)| group)
    }

    /// The compute rasteriser's depth where its pixel won, as the composite in compute writes
    /// it (see [`COMPOSITE_IO`]).
    pub fn soft_depth(&self) -> &wgpu::TextureView {
        &self.targets.as_ref().expect("fit before reading").soft_depth
    }

    /// Forgets the bind groups: the scene's buffers changed; the next [`DeferredPass::fit`]
    /// makes new ones.
    pub fn invalidate(&mut self) {
        self.targets = None;
    }

    /// The `ids` target the main pass draws into.
    pub fn ids(&self) -> &wgpu::TextureView {
        &self.targets.as_ref().expect("fit before drawing").ids
    }

    /// Records pass "shade": the list of the pixels the deferred variants drew (its counts
    /// cleared first), the shade dispatches' arguments from the counts, and the two shade
    /// dispatches. Call after the frame's last main pass.
    pub fn record_shade(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        profile_scope!(NAME);
        let targets = self.targets.as_ref().expect("fit before record");
        frame.encoder.clear_buffer(&targets.list, 0, Some(u64::from(SHADE_LIST_HEADER) * 4));
        let mut pass = frame.compute_pass(NAME);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(SHADE_LIST.index, &targets.list_group);
        pass.set_pipeline(&self.list_drawn);
        let (x, y) = list_workgroups(targets.width, targets.height);
        pass.dispatch(x, y);
        pass.set_pipeline(&self.list_arguments);
        pass.dispatch(1, 1);
        pass.set_bind_group(SHADE_IO.index, &targets.shade_group);
        pass.set_bind_group(TEXTURES.index, &buffers.texture_bind_group);
        pass.set_pipeline(&self.shade);
        pass.dispatch_indirect(&targets.list, PLAIN_SHADE_ARGUMENTS);
        pass.set_pipeline(&self.shade_textured);
        pass.dispatch_indirect(&targets.list, TEXTURED_SHADE_ARGUMENTS);
    }

    /// Records pass "composite" over the last main pass's colour: a dispatch where
    /// [`DeferredPass::fit_output`] readied `target`'s colour, else one full-screen triangle.
    pub fn record_composite(
        &self,
        frame: &mut FrameEncoder<'_>,
        target: &crate::gpu::target::FrameTarget<'_>,
        view: &ViewBuffers,
    ) {
        profile_scope!(COMPOSITE_NAME);
        let targets = self.targets.as_ref().expect("fit before record");
        if let Some(group) = self.output_group(target.color) {
            let mut pass = frame.compute_pass(COMPOSITE_NAME);
            pass.set_pipeline(&self.composite_compute);
            pass.set_bind_group(COMPOSITE_IO.index, group);
            pass.dispatch(targets.width.div_ceil(TILE_WORKGROUP_SIDE), targets.height.div_ceil(TILE_WORKGROUP_SIDE));
            return;
        }
        let mut pass = frame.render_pass(
            COMPOSITE_NAME,
            &[Some(wgpu::RenderPassColorAttachment {
                view: target.color,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
            })],
            Some(wgpu::RenderPassDepthStencilAttachment {
                view: target.depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
        );
        pass.set_pipeline(&self.composite);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(RESOLVE_IO.index, &targets.composite_group);
        pass.draw(0..3, 0..1);
    }

    /// Runs each pipeline once (see `frame::prewarm`): the list of a cleared `ids` target is
    /// empty, so the shade dispatches run no thread and the composite discards every pixel;
    /// then the composite in compute, into a texture of the target's size it can write.
    pub fn prewarm(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        target: &crate::gpu::target::FrameTarget<'_>,
    ) {
        self.record_shade(frame, buffers, view);
        self.record_composite(frame, target, view);
        let writable = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("prewarm composite colour"),
            size: wgpu::Extent3d { width: target.width, height: target.height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: COMPOSITE_FORMAT,
            usage: wgpu::TextureUsages::STORAGE_BINDING,
            view_formats: &[],
        });
        let color = writable.create_view(&Default::default());
        if self.fit_output(device, layouts, Some(&color), &view.frame) {
            self.record_composite(frame, &crate::gpu::target::FrameTarget { color: &color, ..*target }, view);
        }
    }
}
