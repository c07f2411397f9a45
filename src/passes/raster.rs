//! Pass "raster" (`shaders/raster.wgsl`, and "raster late" in the second phase): the compute
//! rasteriser for small objects, its shading (`shaders/shade_list.wgsl` and
//! `shaders/shade.wgsl`, more dispatches in the frame's last raster pass) and its resolve
//! (`shaders/resolve.wgsl`), a full-screen draw at the start of the last main pass (before its
//! multi-draws: see `MainPass::record`).
//!
//! The cull pass lists the drawn objects the compute rasteriser can draw (opaque, masked or
//! double-sided, textures on the first coordinate set if any, no vertex colours, projected
//! radius within `SOFT_MAX_RADIUS_PX` wherever it is on screen, at most `SOFT_MAX_TRIANGLES`
//! triangles at their level); the build pass writes this pass's indirect dispatch, a
//! workgroup per listed object, and the resolve's indirect draw. On a CPU adapter
//! ([`masked_apart`]) the objects of masked materials are listed in a part of the list of
//! their own, with a dispatch and a pipeline of their own, so that only theirs holds the alpha
//! test's code. The raster dispatches write
//! the nearest triangle per pixel into a visibility buffer (`pixels`, 8 bytes per pixel of the
//! target, cleared in the first phase). Once a frame, after its last raster dispatch, a list
//! dispatch gathers the drawn pixels, plain and textured apart (`shade_list`), a one-thread
//! dispatch sizes the two shade dispatches from their counts, and those shade the listed pixels
//! into `shaded` (linear colour); the resolve, first in the frame's last main pass, writes that
//! colour and the pixel's depth into the target wherever it is as near as what the depth
//! buffer holds. So the first phase's hardware draws are not depth-tested against its
//! compute-rasterised pixels; the resolve settles each pixel, and the pyramid between the
//! phases takes the nearer of the depth buffer and the visibility buffer
//! (`PyramidPass::fit_soft` binds it there). Recorded commands are constant in the object count: per phase one
//! clear and one indirect dispatch (two with masked objects apart); per frame one more clear, two direct dispatches (their size
//! follows the target), two indirect dispatches and one indirect full-screen draw (no
//! workgroups and zero vertices when nothing was listed).
//!
//! Why: the H200's raster hardware is slow per vertex, so small objects cost what their
//! vertices cost however few pixels they cover, and a thread per triangle on the compute units
//! draws them many times faster (measured with `examples/soft_raster_probe.rs`: see
//! docs/BENCHMARKS.md § "Compute rasteriser against the raster hardware"). Its fragment work is
//! narrow too, so the shading is a compute dispatch, the full-screen resolve only copies
//! (docs/BENCHMARKS.md § "Shading in a compute dispatch"), and there is one resolve a frame,
//! not one per phase. It needs 64-bit atomics
//! (`SHADER_INT64`, `SHADER_INT64_ATOMIC_MIN_MAX`); without them every object goes to the
//! hardware.

use crate::gpu::commands::{CountingRenderPass, FrameEncoder};
use crate::gpu::target::depth_test;
use crate::gpu_scene::layout::{
    Group, Layouts, FRAME, IDS_FORMAT, MARK_IO, RASTER_IO, RESOLVE_IO, SHADED_FORMAT, SHADE_IO, SHADE_LIST, TEXTURES,
};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::types::RasterArgs;
use crate::gpu_scene::{SceneBuffers, ViewBuffers};
use crate::passes::Phase;
use crate::pipelines::{compute_all, compute_spec, render_all, Constants, PipelineCache, PipelineError, RenderSpec};
use crate::tunables::{
    COUNTER_SOFT, COUNTER_SOFT_EARLY, COUNTER_SOFT_MASKED, COUNTER_SOFT_MASKED_EARLY, MAX_WORKGROUPS_PER_DIMENSION,
    RASTER_WORKGROUP_SIZE, SHADE_LIST_HEADER, SHADE_LIST_SEGMENT, SHADE_WORKGROUP_SIZE, WORKGROUP_SIZE,
};

mod adapter;
pub use adapter::{flat_box, masked_apart, raster_lanes};

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "raster";
/// The second phase's name.
pub const LATE_NAME: &str = "raster late";
/// The mark dispatch's name ([`RasterPass::mark`]).
pub const MARK_NAME: &str = "mark";

pub const SHADER: PassShader = PassShader {
    file: "shaders/raster.wgsl",
    body: include_str!("../../shaders/raster.wgsl"),
    groups: &[&FRAME, &RASTER_IO, &TEXTURES],
};

pub const SHADE_LIST_SHADER: PassShader = PassShader {
    file: "shaders/shade_list.wgsl",
    body: include_str!("../../shaders/shade_list.wgsl"),
    groups: &[&FRAME, &SHADE_LIST],
};

pub const SHADE_SHADER: PassShader = PassShader {
    file: "shaders/shade.wgsl",
    body: include_str!("../../shaders/shade.wgsl"),
    groups: &[&FRAME, &SHADE_IO, &TEXTURES],
};

pub const MARK_SHADER: PassShader = PassShader {
    file: "shaders/mark.wgsl",
    body: include_str!("../../shaders/mark.wgsl"),
    groups: &[&FRAME, &MARK_IO],
};

pub const RESOLVE_SHADER: PassShader = PassShader {
    file: "shaders/resolve.wgsl",
    body: include_str!("../../shaders/resolve.wgsl"),
    groups: &[&FRAME, &RESOLVE_IO],
};

/// The features the compute rasteriser needs.
pub const FEATURES: wgpu::Features = crate::gpu::context::SOFT_RASTER_FEATURES;

/// The visibility buffer and the shaded colours of one target size, and the bind groups over
/// them.
struct Pixels {
    width: u32,
    height: u32,
    /// Whether the shading's list and colours are sized to the target (a view's); a shadow
    /// cascade's rasteriser only writes depth, and binds 1×1 ones.
    shading: bool,
    buffer: wgpu::Buffer,
    /// The colours the shade dispatch stores, which the resolve (or a deferred frame's
    /// composite) copies.
    shaded: wgpu::TextureView,
    /// The drawn pixels to shade (`shaders/shade_list.wgsl` says its layout).
    list: wgpu::Buffer,
    raster_group: wgpu::BindGroup,
    list_group: wgpu::BindGroup,
    shade_group: wgpu::BindGroup,
    resolve_group: wgpu::BindGroup,
    /// A view's: the visibility bits the mark dispatch sets, and group `mark io` over them.
    marks: Option<(wgpu::Buffer, wgpu::BindGroup)>,
}

/// The override constants of the raster pipeline for `phase`, `lanes` threads a workgroup, the
/// walk of a triangle's box ([`flat_box`]) and the list's part it draws (`shaders/raster.wgsl`'s
/// `LATE`, `LANES`, `FLAT_BOX`, `MASKED_PART`, `ALPHA_TEST`, `COUNT_SLOT`, `EARLY_SLOT`): `None`
/// for the whole list in one part (the shader's defaults), `Some(masked)` for a part.
fn raster_constants(phase: Phase, lanes: u32, flat: bool, part: Option<bool>) -> Constants {
    let Constants(mut constants) = phase.late_constant();
    if lanes != RASTER_WORKGROUP_SIZE {
        constants.push(("LANES", f64::from(lanes)));
    }
    if flat {
        constants.push(("FLAT_BOX", Constants::flag(true)));
    }
    if let Some(masked) = part {
        let (count, early) =
            if masked { (COUNTER_SOFT_MASKED, COUNTER_SOFT_MASKED_EARLY) } else { (COUNTER_SOFT, COUNTER_SOFT_EARLY) };
        constants.push(("MASKED_PART", Constants::flag(masked)));
        constants.push(("ALPHA_TEST", Constants::flag(masked)));
        constants.push(("COUNT_SLOT", f64::from(count)));
        constants.push(("EARLY_SLOT", f64::from(early)));
    }
    Constants(constants)
}

/// The raster pipelines of a phase in the order of their dispatches' arguments in
/// `RasterArgs`: the whole list, or its part without an alpha test then its masked part.
const DISPATCH_OFFSETS: [u64; 2] = [0, RasterArgs::MASKED_OFFSET];

pub struct RasterPass {
    /// The first (or only) phase's pipelines, one per part of the list ([`masked_apart`]):
    /// the whole list, or the objects without an alpha test and the masked ones.
    raster: Vec<wgpu::ComputePipeline>,
    /// The second phase's.
    raster_late: Vec<wgpu::ComputePipeline>,
    list_pixels: wgpu::ComputePipeline,
    list_arguments: wgpu::ComputePipeline,
    shade: wgpu::ComputePipeline,
    shade_textured: wgpu::ComputePipeline,
    mark: wgpu::ComputePipeline,
    resolve: wgpu::RenderPipeline,
    /// What the bind groups bind for what this pass does not read: the deferred variants'
    /// `ids` and depth (one 1×1 texture each).
    no_ids: wgpu::TextureView,
    no_depth: wgpu::TextureView,
    /// Fitted to the target by [`RasterPass::fit`]; `None` until then, and after the scene's
    /// buffers change.
    pixels: Option<Pixels>,
}

impl RasterPass {
    /// Gets the pipelines for an adapter of `device_type` ([`masked_apart`], [`raster_lanes`],
    /// [`flat_box`]) from the cache; the resolve draws into targets of `color_format`. (A
    /// deferred frame does not resolve: its composite does, `passes::deferred`.)
    pub fn new(
        device: &wgpu::Device,
        cache: &PipelineCache,
        layouts: &Layouts,
        color_format: wgpu::TextureFormat,
        device_type: wgpu::DeviceType,
    ) -> Result<Self, PipelineError> {
        let lanes = raster_lanes(device_type);
        let flat = flat_box(device_type);
        let shader = SHADER.spec(WORKGROUP_SIZE);
        let shade_shader = SHADE_SHADER.spec(WORKGROUP_SIZE);
        let list_shader = SHADE_LIST_SHADER.spec(WORKGROUP_SIZE);
        let mark_shader = MARK_SHADER.spec(WORKGROUP_SIZE);
        let parts: &[Option<bool>] = if masked_apart(device_type) { &[Some(false), Some(true)] } else { &[None] };
        let shader = &shader;
        let raster_specs = [Phase::Only, Phase::Late].into_iter().flat_map(|phase| {
            parts.iter().map(move |&part| {
                compute_spec(phase.pass_name(NAME, LATE_NAME), &layouts.raster, shader, "raster")
                    .with_constants(raster_constants(phase, lanes, flat, part))
            })
        });
        let specs: Vec<_> = [
            compute_spec("shade list", &layouts.shade_list, &list_shader, "list_pixels"),
            compute_spec("shade list arguments", &layouts.shade_list, &list_shader, "list_arguments"),
            compute_spec("shade", &layouts.shade, &shade_shader, "shade_plain"),
            compute_spec("shade textured", &layouts.shade, &shade_shader, "shade_textured"),
            compute_spec(MARK_NAME, &layouts.mark, &mark_shader, "mark"),
        ]
        .into_iter()
        .chain(raster_specs)
        .collect();
        let mut computes = compute_all(cache, &specs).into_iter();
        let resolve_spec = RenderSpec {
            constants: Default::default(),
            label: "resolve".into(),
            layout: layouts.resolve.clone(),
            shader: RESOLVE_SHADER.spec(WORKGROUP_SIZE),
            vertex_entry: "vs_fullscreen".into(),
            fragment_entry: Some("fs_resolve".into()),
            vertex_buffers: Vec::new(),
            targets: vec![Some(wgpu::ColorTargetState {
                format: color_format,
                blend: None,
                write_mask: wgpu::ColorWrites::ALL,
            })],
            primitive: wgpu::PrimitiveState::default(),
            // Where the first phase's hardware draws are as near, the compute rasteriser's
            // pixel wins, as it would have had it been drawn first.
            depth_stencil: Some(wgpu::DepthStencilState {
                depth_compare: wgpu::CompareFunction::LessEqual,
                ..depth_test()
            }),
            multisample: Default::default(),
        };
        let resolve = render_all(cache, &[resolve_spec]).into_iter().next().expect("one result per spec");
        let mut compute = || computes.next().expect("one result per spec");
        let (list_pixels, list_arguments) = (compute()?, compute()?);
        let (shade, shade_textured, mark) = (compute()?, compute()?, compute()?);
        let raster = parts.iter().map(|_| compute()).collect::<Result<Vec<_>, _>>()?;
        let raster_late = parts.iter().map(|_| compute()).collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            raster,
            raster_late,
            list_pixels,
            list_arguments,
            shade,
            shade_textured,
            mark,
            resolve: resolve?,
            no_ids: crate::gpu_scene::buffers::placeholder(device, "no ids", IDS_FORMAT),
            no_depth: crate::gpu_scene::buffers::placeholder(device, "no depth", crate::gpu::target::DEPTH_FORMAT),
            pixels: None,
        })
    }

    /// Whether the list is in two parts, masked objects apart ([`masked_apart`]).
    pub fn masked_apart(&self) -> bool {
        self.raster.len() == DISPATCH_OFFSETS.len()
    }

    /// The same pipelines and no visibility buffer yet: what a view starts with (each view
    /// rasterises into a buffer of its own size).
    pub fn for_view(&self) -> Self {
        Self {
            raster: self.raster.clone(),
            raster_late: self.raster_late.clone(),
            list_pixels: self.list_pixels.clone(),
            list_arguments: self.list_arguments.clone(),
            shade: self.shade.clone(),
            shade_textured: self.shade_textured.clone(),
            mark: self.mark.clone(),
            resolve: self.resolve.clone(),
            no_ids: self.no_ids.clone(),
            no_depth: self.no_depth.clone(),
            pixels: None,
        }
    }

    /// Makes the visibility buffer and the shaded colours for a `width` × `height` target, and
    /// the bind groups over them, `buffers` and the view's visibility bits `marks` (which
    /// [`RasterPass::mark`] sets), unless they fit already.
    pub fn fit(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        buffers: &SceneBuffers,
        marks: &wgpu::Buffer,
        (width, height): (u32, u32),
    ) {
        self.fit_for(device, layouts, buffers, (width, height), true);
        let pixels = self.pixels.as_mut().expect("fitted above");
        if pixels.marks.as_ref().is_some_and(|(bits, _)| bits == marks) {
            return;
        }
        let named = [("pixels", &pixels.buffer), ("instances", &buffers.instances), ("visibility", marks)];
        let group = bind_io(device, &MARK_IO, &layouts.mark_io, &named, &[]);
        pixels.marks = Some((marks.clone(), group));
    }

    /// [`RasterPass::fit`] for a shadow cascade's `size`² layer: a visibility buffer of its
    /// size, whose depth the shadow merge gives the layer (`passes::shadow`); nothing to shade.
    pub fn fit_depth(&mut self, device: &wgpu::Device, layouts: &Layouts, buffers: &SceneBuffers, size: u32) {
        self.fit_for(device, layouts, buffers, (size, size), false);
    }

    fn fit_for(
        &mut self,
        device: &wgpu::Device,
        layouts: &Layouts,
        buffers: &SceneBuffers,
        (width, height): (u32, u32),
        shading: bool,
    ) {
        if self.pixels.as_ref().is_some_and(|p| p.width == width && p.height == height && p.shading == shading) {
            return;
        }
        let (shade_width, shade_height) = if shading { (width.max(1), height.max(1)) } else { (1, 1) };
        let buffer = crate::gpu::counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("visibility buffer"),
                size: u64::from(width.max(1)) * u64::from(height.max(1)) * 8,
                // COPY_SRC: tests read it back.
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            },
        );
        let list = shade_list_buffer(device, "shade list", shade_width, shade_height);
        let shaded = device
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("shaded"),
                size: wgpu::Extent3d { width: shade_width, height: shade_height, depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: SHADED_FORMAT,
                usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING,
                view_formats: &[],
            })
            .create_view(&Default::default());
        let named = scene_bindings(buffers, &buffer, &list);
        let textures = [("shaded", &shaded), ("drawn", &shaded), ("ids", &self.no_ids), ("depth", &self.no_depth)];
        let group = |table: &Group, layout: &wgpu::BindGroupLayout| bind_io(device, table, layout, &named, &textures);
        let raster_group = group(&RASTER_IO, &layouts.raster_io);
        let list_group = group(&SHADE_LIST, &layouts.shade_list_io);
        let shade_group = group(&SHADE_IO, &layouts.shade_io);
        let resolve_group = group(&RESOLVE_IO, &layouts.resolve_io);
        self.pixels = Some(Pixels {
            width,
            height,
            shading,
            buffer,
            shaded,
            list,
            raster_group,
            list_group,
            shade_group,
            resolve_group,
            marks: None,
        });
    }

    /// Forgets the bind groups: the scene's buffers changed; the next [`RasterPass::fit`]
    /// makes new ones.
    pub fn invalidate(&mut self) {
        self.pixels = None;
    }

    /// Records the phase's raster pass (the first phase clears the visibility buffer first,
    /// timed with the pass),
    /// and after it, where `shade` (the frame's last phase), the shading of every pixel the
    /// frame's raster passes drew: lists of them, plain and textured (a thread per row segment;
    /// the counts cleared first), the shade dispatches' arguments from the counts, and the two
    /// shade dispatches, a thread per listed pixel. Call after the phase's build pass, which
    /// writes the raster dispatch, and after [`RasterPass::fit`].
    pub fn record(
        &self,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        phase: Phase,
        shade: bool,
    ) {
        self.record_named(frame, buffers, view, phase, shade, phase.pass_name(NAME, LATE_NAME));
    }

    /// [`RasterPass::record`] under the pass name `name` (a shadow cascade's).
    pub fn record_named(
        &self,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        phase: Phase,
        shade: bool,
        name: &'static str,
    ) {
        profile_scope!(name);
        let pixels = self.pixels.as_ref().expect("fit before record");
        // The clears are the pass's work too (the visibility buffer is 8 bytes a pixel: 32 MB
        // for a 2048² cascade), so they are timed with it.
        if phase != Phase::Late || shade {
            frame.before_pass(name, |encoder| {
                if phase != Phase::Late {
                    encoder.clear_buffer(&pixels.buffer, 0, None);
                }
                if shade {
                    encoder.clear_buffer(&pixels.list, 0, Some(u64::from(SHADE_LIST_HEADER) * 4));
                }
            });
        }
        let mut pass = frame.compute_pass(name);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(RASTER_IO.index, &pixels.raster_group);
        pass.set_bind_group(TEXTURES.index, &buffers.texture_bind_group);
        // One dispatch per part of the list.
        let pipelines = if phase == Phase::Late { &self.raster_late } else { &self.raster };
        for (pipeline, offset) in pipelines.iter().zip(DISPATCH_OFFSETS) {
            pass.set_pipeline(pipeline);
            pass.dispatch_indirect(&buffers.raster_args, offset);
        }
        if shade {
            // In the same pass: wgpu puts a barrier between dispatches that write and read the
            // same buffer.
            pass.set_bind_group(SHADE_LIST.index, &pixels.list_group);
            pass.set_pipeline(&self.list_pixels);
            let (x, y) = list_workgroups(pixels.width, pixels.height);
            pass.dispatch(x, y);
            pass.set_pipeline(&self.list_arguments);
            pass.dispatch(1, 1);
            pass.set_bind_group(SHADE_IO.index, &pixels.shade_group);
            pass.set_pipeline(&self.shade);
            pass.dispatch_indirect(&pixels.list, PLAIN_SHADE_ARGUMENTS);
            pass.set_pipeline(&self.shade_textured);
            pass.dispatch_indirect(&pixels.list, TEXTURED_SHADE_ARGUMENTS);
        }
    }

    /// Records the mark dispatch (`shaders/mark.wgsl`) in a pass of its own: after the frame's
    /// last raster pass, in a frame whose second culling phase left the bits of the compute
    /// rasteriser's objects to it (`FrameUniforms::mark_seen`), it sets the bit of every object
    /// that holds a pixel of its visibility buffer. A direct dispatch, whose size follows the
    /// target.
    pub fn mark(&self, frame: &mut FrameEncoder<'_>, view: &ViewBuffers) {
        profile_scope!(MARK_NAME);
        let pixels = self.pixels.as_ref().expect("fit before mark");
        let (_, group) = pixels.marks.as_ref().expect("a view's rasteriser is fitted with its bits");
        let mut pass = frame.compute_pass(MARK_NAME);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(MARK_IO.index, group);
        pass.set_pipeline(&self.mark);
        let (x, y) = list_workgroups(pixels.width, pixels.height);
        pass.dispatch(x, y);
    }

    /// Records the frame's resolve into its last main pass, before the draws: an indirect
    /// draw the build pass wrote, one full-screen triangle, or none where no object was
    /// listed.
    pub fn resolve(&self, pass: &mut CountingRenderPass<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        let pixels = self.pixels.as_ref().expect("fit before resolve");
        pass.set_pipeline(&self.resolve);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(RESOLVE_IO.index, &pixels.resolve_group);
        pass.draw_indirect(&buffers.raster_args, RasterArgs::RESOLVE_OFFSET);
    }

    /// The visibility buffer: per pixel of the target, row by row, the nearest (depth, payload)
    /// as two words, the inverted payload then the inverted depth bits (zero: no pixel).
    pub fn visibility_buffer(&self) -> &wgpu::Buffer {
        &self.pixels.as_ref().expect("fit before reading").buffer
    }

    /// The colours the shade dispatch stored, one per pixel of the visibility buffer.
    pub fn shaded(&self) -> &wgpu::TextureView {
        &self.pixels.as_ref().expect("fit before reading").shaded
    }

    /// Runs each pipeline once on an empty list (see `frame::prewarm`); the resolve draws into
    /// `pass` nothing (the cleared buffer holds no pixel).
    pub fn prewarm_compute(&self, frame: &mut FrameEncoder<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        let pixels = self.pixels.as_ref().expect("fit before prewarm");
        frame.encoder.clear_buffer(&pixels.buffer, 0, None);
        frame.encoder.clear_buffer(&pixels.list, 0, Some(u64::from(SHADE_LIST_HEADER) * 4));
        let mut pass = frame.compute_pass(NAME);
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(RASTER_IO.index, &pixels.raster_group);
        pass.set_bind_group(TEXTURES.index, &buffers.texture_bind_group);
        for pipeline in self.raster.iter().chain(&self.raster_late) {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
        pass.set_bind_group(SHADE_LIST.index, &pixels.list_group);
        for pipeline in [&self.list_pixels, &self.list_arguments] {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
        pass.set_bind_group(SHADE_IO.index, &pixels.shade_group);
        for pipeline in [&self.shade, &self.shade_textured] {
            pass.set_pipeline(pipeline);
            pass.dispatch(1, 1);
        }
        // The buffer holds no pixel: nothing is marked.
        if let Some((_, group)) = &pixels.marks {
            pass.set_bind_group(MARK_IO.index, group);
            pass.set_pipeline(&self.mark);
            pass.dispatch(1, 1);
        }
    }

    /// The resolve pipeline, drawn once into `pass` over the cleared visibility buffer, so
    /// every pixel is discarded (see [`RasterPass::prewarm_compute`]).
    pub fn prewarm_resolve(&self, pass: &mut CountingRenderPass<'_>, view: &ViewBuffers) {
        let pixels = self.pixels.as_ref().expect("fit before prewarm");
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(RESOLVE_IO.index, &pixels.resolve_group);
        pass.set_pipeline(&self.resolve);
        pass.draw(0..3, 0..1);
    }
}

/// Byte offsets in the shade list of the plain and the textured pixels' shade dispatch
/// arguments: words 1-3 and 5-7, after each list's count (`shaders/shade_list.wgsl`).
pub(crate) const PLAIN_SHADE_ARGUMENTS: u64 = 4;
pub(crate) const TEXTURED_SHADE_ARGUMENTS: u64 = 4 * (SHADE_LIST_HEADER as u64 / 2 + 1);

/// A shade list (`shaders/shade_list.wgsl` says its layout) for a `width` × `height` target.
pub(crate) fn shade_list_buffer(device: &wgpu::Device, label: &str, width: u32, height: u32) -> wgpu::Buffer {
    crate::gpu::counted::buffer(
        device,
        &wgpu::BufferDescriptor {
            label: Some(label),
            size: (u64::from(SHADE_LIST_HEADER) + 2 * u64::from(width) * u64::from(height)) * 4,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        },
    )
}

/// The buffers the shading groups bind, by the names their tables give them: the scene's,
/// the visibility buffer `pixels` and the shade list `list`.
pub(crate) fn scene_bindings<'a>(
    buffers: &'a SceneBuffers,
    pixels: &'a wgpu::Buffer,
    list: &'a wgpu::Buffer,
) -> [(&'static str, &'a wgpu::Buffer); 10] {
    [
        ("objects", &buffers.objects),
        ("batches", &buffers.batches),
        ("materials", &buffers.materials),
        ("instances", &buffers.instances),
        ("draw_counts", &buffers.draw_counts),
        ("vertex_words", &buffers.vertices),
        ("vertex_tangents", &buffers.vertex_inputs[0]),
        ("indices", &buffers.indices),
        ("pixels", pixels),
        ("shade_list", list),
    ]
}

/// A bind group of `table`: its buffers from `named`, its textures from `textures`, by name.
pub(crate) fn bind_io(
    device: &wgpu::Device,
    table: &Group,
    layout: &wgpu::BindGroupLayout,
    named: &[(&str, &wgpu::Buffer)],
    textures: &[(&str, &wgpu::TextureView)],
) -> wgpu::BindGroup {
    let entries: Vec<_> = table
        .bindings
        .iter()
        .map(|b| match named.iter().find(|(name, _)| *name == b.name) {
            Some(&(name, buffer)) => table.buffer(name, buffer),
            None => {
                let (_, view) = textures
                    .iter()
                    .find(|(name, _)| *name == b.name)
                    .unwrap_or_else(|| panic!("no resource for binding \"{}\" of \"{}\"", b.name, table.label));
                table.entry(b.name, wgpu::BindingResource::TextureView(view))
            }
        })
        .collect();
    device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(table.label), layout, entries: &entries })
}

/// Workgroups of the list dispatch for a `width` × `height` target: a thread per
/// `SHADE_LIST_SEGMENT` pixels of a row, split over y past the per-dimension limit.
pub(crate) fn list_workgroups(width: u32, height: u32) -> (u32, u32) {
    let segments = width.div_ceil(SHADE_LIST_SEGMENT) * height;
    let groups = segments.div_ceil(SHADE_WORKGROUP_SIZE);
    (groups.min(MAX_WORKGROUPS_PER_DIMENSION), groups.div_ceil(MAX_WORKGROUPS_PER_DIMENSION))
}
