//! Pass "shadow k" (`shaders/shadow.wgsl`): the depth of the sun's casters seen by shadow
//! cascade k, into layer k of the view's shadow map. A cascade is a view of its own
//! (`frame::shadows`): its cull and build passes write the draws as a main view's do, and this
//! pass consumes them the way the main pass does, one `set_pipeline` and one multi-draw per
//! variant ([`indirect`]), or the CPU baseline's draws ([`baseline`]), or a bundle of them
//! ([`bundle`]), through the same [`VariantPipelines`]. So its recorded commands do not depend on
//! the object count either.

use crate::gpu::commands::{dispatch_size, FrameEncoder};
use crate::gpu_scene::layout::{Layouts, FRAME, SCENE, SHADOW_MERGE_IO, TEXTURES};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::{vertex_layout, PreparedScene, SceneBuffers, ViewBuffers};
use crate::passes::cull::cpu::DrawnObject;
use crate::passes::main::indirect::{self, IndirectDraws};
use crate::passes::main::{baseline, bundle, MainPass, VariantPipelines};
use crate::passes::raster::RasterPass;
use crate::passes::Phase;
use crate::pipelines::{
    compute_all, compute_spec, render_all, PipelineCache, PipelineError, RenderSpec, VertexBufferSpec,
};
use crate::scene::Variant;
use crate::tunables::{MAX_CASCADES, SHADOW_BIAS_SLOPE, SHADOW_BIAS_STEPS, WORKGROUP_SIZE};

/// The depth pass of each cascade: its wgpu label, puffin scope and GPU timestamp name.
pub const NAMES: [&str; MAX_CASCADES] = ["shadow 0", "shadow 1", "shadow 2", "shadow 3"];
/// The cull pass of each cascade.
pub const CULL_NAMES: [&str; MAX_CASCADES] = ["cull shadow 0", "cull shadow 1", "cull shadow 2", "cull shadow 3"];
/// The build pass of each cascade.
pub const BUILD_NAMES: [&str; MAX_CASCADES] = ["build shadow 0", "build shadow 1", "build shadow 2", "build shadow 3"];
/// The second phase's passes of each cascade with occlusion culling: the pyramid of its first
/// phase's depth, then its cull, build and depth pass.
pub const PYRAMID_NAMES: [&str; MAX_CASCADES] =
    ["pyramid shadow 0", "pyramid shadow 1", "pyramid shadow 2", "pyramid shadow 3"];
pub const LATE_CULL_NAMES: [&str; MAX_CASCADES] =
    ["cull shadow 0 late", "cull shadow 1 late", "cull shadow 2 late", "cull shadow 3 late"];
pub const LATE_BUILD_NAMES: [&str; MAX_CASCADES] =
    ["build shadow 0 late", "build shadow 1 late", "build shadow 2 late", "build shadow 3 late"];
pub const LATE_NAMES: [&str; MAX_CASCADES] = ["shadow 0 late", "shadow 1 late", "shadow 2 late", "shadow 3 late"];
/// The compute rasteriser's pass of each cascade's phases (its small casters).
pub const RASTER_NAMES: [&str; MAX_CASCADES] =
    ["raster shadow 0", "raster shadow 1", "raster shadow 2", "raster shadow 3"];
pub const LATE_RASTER_NAMES: [&str; MAX_CASCADES] =
    ["raster shadow 0 late", "raster shadow 1 late", "raster shadow 2 late", "raster shadow 3 late"];
/// The merge of each cascade's small casters with its layer, before each phase's depth pass.
pub const MERGE_NAMES: [&str; MAX_CASCADES] = ["merge shadow 0", "merge shadow 1", "merge shadow 2", "merge shadow 3"];
pub const LATE_MERGE_NAMES: [&str; MAX_CASCADES] =
    ["merge shadow 0 late", "merge shadow 1 late", "merge shadow 2 late", "merge shadow 3 late"];

/// Whether `name` is one of a cascade's passes.
pub fn is_cascade_pass(name: &str) -> bool {
    [
        NAMES,
        CULL_NAMES,
        BUILD_NAMES,
        RASTER_NAMES,
        PYRAMID_NAMES,
        LATE_CULL_NAMES,
        LATE_BUILD_NAMES,
        LATE_RASTER_NAMES,
        LATE_NAMES,
        MERGE_NAMES,
        LATE_MERGE_NAMES,
    ]
    .iter()
    .any(|names| names.contains(&name))
}

pub const SHADER: PassShader = PassShader {
    file: "shaders/shadow.wgsl",
    body: include_str!("../../shaders/shadow.wgsl"),
    groups: &[&FRAME, &SCENE, &TEXTURES],
};

pub const MERGE_SHADER: PassShader = PassShader {
    file: "shaders/shadow_merge.wgsl",
    body: include_str!("../../shaders/shadow_merge.wgsl"),
    groups: &[&SHADOW_MERGE_IO],
};

/// Format of the shadow map's layers. 16 bits: a cascade's depth pass is bound by its depth
/// writes on GPUs with few graphics units, and half the bytes cost less (docs/BENCHMARKS.md
/// § "Depth16Unorm shadow layers"); a cascade's depth spans the scene's extent along the
/// sunlight, so a step is 1/65,536 of it: under a millimetre for a 50-metre scene.
pub const SHADOW_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth16Unorm;

/// A `size`² layer of [`SHADOW_FORMAT`] at the far plane, row after row: every 16-bit depth
/// at its largest, 1.0. What a cascade's first depth pass starts from (`ShadowMap::far`) and
/// a first phase's merge reads ([`ShadowMerge::far_plane`]).
pub fn far_plane_depths(size: u32) -> Vec<u8> {
    vec![0xff; size as usize * size as usize * 2]
}

/// The casters' depth bias ([`SHADOW_BIAS_STEPS`] steps of [`SHADOW_FORMAT`] and
/// [`SHADOW_BIAS_SLOPE`] of the triangle's slope in depth). The receivers' normal offset
/// (`SHADOW_NORMAL_OFFSET` in `shaders/shared/math.wgsl`) does the rest.
pub const DEPTH_BIAS: wgpu::DepthBiasState =
    wgpu::DepthBiasState { constant: SHADOW_BIAS_STEPS, slope_scale: SHADOW_BIAS_SLOPE, clamp: 0.0 };

/// What the shadow pass draws.
pub enum ShadowDraws<'a> {
    /// The draws the cascade's cull (and build) passes wrote.
    Indirect(IndirectDraws),
    /// One draw per object the cascade's CPU cull kept.
    Baseline(&'a [DrawnObject]),
    /// Those draws, recorded once into a bundle.
    Bundle(&'a bundle::RecordedBundle),
}

/// What a cascade's depth pass finds in its layer before it draws. Never a clear of the
/// render pass: on a GPU with few graphics units (the H100) clearing a 2048² layer there costs
/// more than a copy into it (docs/BENCHMARKS.md § "A cascade's layer starts with a copy").
pub enum LayerStart<'a> {
    /// What the first phase left: the second phase draws over it.
    Kept,
    /// The far plane, copied from the map's buffer of it (`ShadowMap::far`).
    Far(&'a wgpu::Buffer),
    /// The merge's depths (`ShadowPass::merge`), copied from its buffer: the compute
    /// rasteriser's casters of this phase and the ones before, over the far plane or, in the
    /// second phase, over what the first left.
    Merged(&'a ShadowMerge),
}

/// The depth-only pipelines of every casting variant (all but blend), on the universal layout,
/// and the merge of the compute rasteriser's small casters into a layer.
pub struct ShadowPass {
    /// By `Variant as usize`; none for `Variant::Blend`.
    pipelines: Vec<wgpu::RenderPipeline>,
    /// `shaders/shadow_merge.wgsl`.
    merge: wgpu::ComputePipeline,
}

impl VariantPipelines for ShadowPass {
    fn variant_pipeline(&self, variant: usize) -> &wgpu::RenderPipeline {
        &self.pipelines[variant]
    }

    fn color_targets(&self) -> Vec<Option<wgpu::TextureFormat>> {
        Vec::new()
    }

    fn depth_format(&self) -> wgpu::TextureFormat {
        SHADOW_FORMAT
    }
}

/// The shadow pipeline of `variant`: depth only (masked casters run the alpha test), culling
/// back faces as the main pass does, double-sided ones neither.
pub fn variant_spec(layouts: &Layouts, variant: Variant) -> RenderSpec {
    let shader = SHADER.spec(WORKGROUP_SIZE);
    let vertex = vertex_layout();
    let state = crate::passes::main::variant_state(variant);
    let masked = variant == Variant::Masked;
    RenderSpec {
        constants: Default::default(),
        label: format!("shadow {}", variant.name()),
        layout: layouts.render.clone(),
        shader,
        vertex_entry: if masked { "vs_masked" } else { "vs_depth" }.into(),
        fragment_entry: masked.then(|| "fs_masked".into()),
        vertex_buffers: vec![VertexBufferSpec {
            array_stride: vertex.array_stride,
            step_mode: vertex.step_mode,
            attributes: vertex.attributes.to_vec(),
        }],
        targets: Vec::new(),
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: state.cull_mode,
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: SHADOW_FORMAT,
            depth_write_enabled: true,
            depth_compare: wgpu::CompareFunction::Less,
            stencil: Default::default(),
            bias: DEPTH_BIAS,
        }),
        multisample: Default::default(),
    }
}

impl ShadowPass {
    /// Gets every casting variant's pipeline from the cache, compiled in parallel: all but the
    /// blend variant (last), whose objects receive shadows but cast none (the cull lists none
    /// in a cascade, `FrameUniforms::blend_list`).
    pub fn new(cache: &PipelineCache, layouts: &Layouts) -> Result<Self, PipelineError> {
        const _: () = assert!(Variant::Blend as usize == Variant::ALL.len() - 1);
        let casting = Variant::ALL.iter().filter(|&&v| v != Variant::Blend);
        let specs: Vec<_> = casting.map(|&v| variant_spec(layouts, v)).collect();
        let merge = compute_spec("merge shadow", &layouts.shadow_merge, &MERGE_SHADER.spec(WORKGROUP_SIZE), "merge");
        let merge = compute_all(cache, &[merge]).into_iter().next().expect("one result per spec");
        let pipelines = render_all(cache, &specs).into_iter().collect::<Result<Vec<_>, _>>()?;
        Ok(Self { pipelines, merge: merge? })
    }

    /// A 1×1 layer to prewarm into ([`ShadowPass::prewarm`]).
    pub fn prewarm_target(device: &wgpu::Device) -> wgpu::TextureView {
        // TEXTURE_BINDING: the merge reads it.
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        crate::gpu_scene::buffers::single_texel(device, "shadow prewarm layer", SHADOW_FORMAT, usage)
    }

    /// Draws once with every pipeline into `depth` (a 1×1 layer of [`SHADOW_FORMAT`],
    /// [`ShadowPass::prewarm_target`]), contents discarded; and where there is a compute
    /// rasteriser (`raster`, fitted to 1×1), runs the merge once over that layer into a buffer
    /// of its own.
    #[allow(clippy::too_many_arguments)] // the device and layouts for the merge's bindings, the views', the layer, the rasteriser
    pub fn prewarm(
        &self,
        frame: &mut FrameEncoder<'_>,
        device: &wgpu::Device,
        layouts: &Layouts,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        depth: &wgpu::TextureView,
        raster: Option<&RasterPass>,
    ) {
        let mut pass = frame.render_pass(
            NAMES[0],
            &[],
            Some(wgpu::RenderPassDepthStencilAttachment {
                view: depth,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Clear(1.0), store: wgpu::StoreOp::Discard }),
                stencil_ops: None,
            }),
        );
        MainPass::bind_scene(&mut pass, buffers, view);
        let instance = if buffers.object_count > 0 { buffers.identity_base } else { 0 };
        for pipeline in &self.pipelines {
            pass.set_pipeline(pipeline);
            pass.draw_indexed(0..3, 0, instance..instance + 1);
        }
        drop(pass);
        if let Some(raster) = raster {
            let merge = ShadowMerge::new(device, layouts, std::slice::from_ref(depth), depth, raster, 1);
            let mut pass = frame.compute_pass(MERGE_NAMES[0]);
            pass.set_pipeline(&self.merge);
            pass.set_bind_group(SHADOW_MERGE_IO.index, &merge.groups[0]);
            pass.dispatch(1, 1);
        }
    }

    /// Records cascade `cascade`'s casters of `phase` into its layer of `map` (`layer`, its
    /// view), over what `start` puts there first.
    #[allow(clippy::too_many_arguments)] // the cascade, its phase, map, layer and start, the scene's and the view's bindings, the draws
    pub fn record(
        &self,
        frame: &mut FrameEncoder<'_>,
        cascade: usize,
        phase: Phase,
        (map, layer): (&wgpu::Texture, &wgpu::TextureView),
        start: LayerStart<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        prepared: &PreparedScene,
        draws: ShadowDraws<'_>,
    ) {
        let name = phase.pass_name(NAMES[cascade], LATE_NAMES[cascade]);
        let to_layer = wgpu::TexelCopyTextureInfo {
            texture: map,
            mip_level: 0,
            origin: wgpu::Origin3d { x: 0, y: 0, z: cascade as u32 },
            aspect: wgpu::TextureAspect::DepthOnly,
        };
        let depths = match start {
            LayerStart::Kept => None,
            LayerStart::Far(far) => Some(far),
            LayerStart::Merged(merge) => Some(&merge.merged),
        };
        if let Some(depths) = depths {
            // A layer's 16-bit depths row after row: rows of 2 × side bytes, a multiple of 256
            // as a copy's rows must be for every side from SHADOW_MAP_MIN_SIZE up.
            const _: () =
                assert!((crate::tunables::SHADOW_MAP_MIN_SIZE * 2).is_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT));
            let size = map.width();
            let layout =
                wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(size * 2), rows_per_image: Some(size) };
            frame.before_pass(name, |encoder| {
                encoder.copy_buffer_to_texture(
                    wgpu::TexelCopyBufferInfo { buffer: depths, layout },
                    to_layer,
                    wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
                );
            });
        }
        profile_scope!(name);
        let mut pass = frame.render_pass(
            name,
            &[],
            Some(wgpu::RenderPassDepthStencilAttachment {
                view: layer,
                depth_ops: Some(wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store }),
                stencil_ops: None,
            }),
        );
        match draws {
            ShadowDraws::Indirect(indirect) => {
                MainPass::bind_scene(&mut pass, buffers, view);
                indirect::record(self, &mut pass, buffers, prepared, indirect);
            }
            ShadowDraws::Baseline(visible) => {
                MainPass::bind_scene(&mut pass, buffers, view);
                baseline::record(self, &mut pass, buffers, prepared, visible);
            }
            ShadowDraws::Bundle(recorded) => pass.execute_bundle(&recorded.bundle, &recorded.commands),
        }
    }
}

/// What the merge of a view's cascades binds: the 16-bit depths it writes (a layer's worth,
/// shared by the cascades, which merge in turn) and per cascade a bind group over its layer,
/// the view's shadow rasteriser's visibility buffer and those depths; and one over the far
/// plane in place of a layer, for first phases.
pub struct ShadowMerge {
    /// Side of a layer, in texels.
    size: u32,
    /// The visibility buffer the groups bind.
    pixels: wgpu::Buffer,
    merged: wgpu::Buffer,
    /// By cascade.
    groups: Vec<wgpu::BindGroup>,
    /// Over the far plane: a first phase's merge, whose layer holds last frame's depths.
    fresh: wgpu::BindGroup,
}

impl ShadowMerge {
    /// A `size`² layer of the far plane for [`ShadowMerge::new`] (made only where a view's
    /// cascades use the compute rasteriser).
    pub fn far_plane(device: &wgpu::Device, queue: &wgpu::Queue, size: u32) -> wgpu::TextureView {
        let far = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadow far plane"),
            size: wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: SHADOW_FORMAT,
            usage: wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &far,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::DepthOnly,
            },
            &far_plane_depths(size),
            wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(size * 2), rows_per_image: Some(size) },
            wgpu::Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        );
        far.create_view(&wgpu::TextureViewDescriptor::default())
    }

    /// The merge's buffer and groups for `layers` (each `size`², `far` one more at the far
    /// plane: [`ShadowMerge::far_plane`]) and `raster`'s visibility buffer (fitted to that
    /// size).
    pub fn new(
        device: &wgpu::Device,
        layouts: &Layouts,
        layers: &[wgpu::TextureView],
        far: &wgpu::TextureView,
        raster: &RasterPass,
        size: u32,
    ) -> Self {
        let pixels = raster.visibility_buffer().clone();
        let merged = crate::gpu::counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("merged shadow depths"),
                // Two 16-bit depths a word; a word at least.
                size: (u64::from(size) * u64::from(size)).div_ceil(2).max(1) * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            },
        );
        let group = |layer| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some(SHADOW_MERGE_IO.label),
                layout: &layouts.shadow_merge_io,
                entries: &[
                    SHADOW_MERGE_IO.entry("layer", wgpu::BindingResource::TextureView(layer)),
                    SHADOW_MERGE_IO.buffer("pixels", &pixels),
                    SHADOW_MERGE_IO.buffer("merged", &merged),
                ],
            })
        };
        let groups = layers.iter().map(group).collect();
        let fresh = group(far);
        Self { size, pixels, merged, groups, fresh }
    }

    /// Whether these are the groups for `layers` layers of `size`² and `raster`'s buffer.
    pub fn fits(&self, layers: usize, size: u32, raster: &RasterPass) -> bool {
        self.size == size && self.groups.len() == layers && &self.pixels == raster.visibility_buffer()
    }
}

impl ShadowPass {
    /// Records the merge of cascade `cascade`'s small casters of `phase` (and the first
    /// phase's, which stay in the visibility buffer) with the layer: a thread per two texels
    /// writes the nearer of the two into the merge's buffer, which the phase's depth pass then
    /// copies into the layer ([`LayerStart::Merged`]). A first phase reads the far plane in
    /// place of the layer, which still holds last frame's depths.
    pub fn merge(&self, frame: &mut FrameEncoder<'_>, cascade: usize, phase: Phase, merge: &ShadowMerge) {
        let name = phase.pass_name(MERGE_NAMES[cascade], LATE_MERGE_NAMES[cascade]);
        profile_scope!(name);
        let group = if phase == Phase::Late { &merge.groups[cascade] } else { &merge.fresh };
        let (x, y, _) = dispatch_size((merge.size * merge.size).div_ceil(2), WORKGROUP_SIZE);
        let mut pass = frame.compute_pass(name);
        pass.set_pipeline(&self.merge);
        pass.set_bind_group(SHADOW_MERGE_IO.index, group);
        pass.dispatch(x, y);
    }
}
