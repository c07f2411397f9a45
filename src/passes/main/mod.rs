//! Pass "main" (`shaders/draw.wgsl`): owns the render pipeline of every variant (all on the
//! universal layout) and opens the render pass every way of drawing records into:
//! [`indirect`] (GPU-written multi-draws), [`baseline`] (one CPU-recorded draw per visible
//! object) or [`bundle`] (the baseline replayed from a render bundle).

pub mod baseline;
pub mod bundle;
mod color;
pub mod indirect;

pub use color::{encodes_srgb, srgb_encode, CLEAR_COLOR};

use crate::gpu::commands::{CountingRenderPass, FrameEncoder};
use crate::gpu::target::{depth_test, FrameTarget};
use crate::gpu_scene::layout::{Layouts, FRAME, IDS_FORMAT, SCENE, TEXTURES};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::types::DRAW_ARGS_SIZE;
use crate::gpu_scene::{vertex_layout, PreparedScene, SceneBuffers, ViewBuffers};
use crate::passes::blend;
use crate::passes::cull::cpu::DrawnObject;
use crate::passes::raster::RasterPass;
use crate::passes::Phase;
use crate::pipelines::{render_all, Constants, PipelineCache, PipelineError, RenderSpec, ShaderSpec, VertexBufferSpec};
use crate::scene::Variant;
use crate::tunables::{COUNTER_BLEND, NO_IDS, WORKGROUP_SIZE};

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "main";
/// The second phase's name: it loads what the first phase drew and draws over it.
pub const LATE_NAME: &str = "main late";

pub const SHADER: PassShader = PassShader {
    file: "shaders/draw.wgsl",
    body: include_str!("../../../shaders/draw.wgsl"),
    groups: &[&FRAME, &SCENE, &TEXTURES],
};

/// The draw shader with the deferred variants' entry points (`shaders/draw_vis.wgsl`), which
/// use `primitive_index`: a module of its own, compiled only where the adapter has it
/// (`passes::deferred`).
pub const VIS_SHADER: PassShader = PassShader {
    file: "shaders/draw_vis.wgsl",
    body: concat!(include_str!("../../../shaders/draw.wgsl"), include_str!("../../../shaders/draw_vis.wgsl")),
    groups: &[&FRAME, &SCENE, &TEXTURES],
};

/// What the main pass draws.
pub enum Draws<'a> {
    /// The draws the cull (and build) passes wrote, with, in the frame's last phase where there
    /// is a compute rasteriser, its resolve of the frame (drawn first).
    Indirect(indirect::IndirectDraws, Option<&'a RasterPass>),
    /// One draw per visible object (ascending ids, hence grouped by variant).
    Baseline(&'a [DrawnObject]),
    /// A recorded bundle, replayed.
    Bundle(&'a bundle::RecordedBundle),
}

/// What the blended pass draws.
pub enum BlendDraws<'a> {
    /// The blend sort's draws (`passes::blend`), behind its count where `counted`.
    Sorted { counted: bool },
    /// A deferred renderer's CPU baseline: one draw per visible blended object, in order.
    Baseline(&'a [DrawnObject]),
    /// A deferred renderer's bundle of its blended objects.
    Bundle(&'a bundle::RecordedBundle),
}

/// Whether the pass starts from a cleared target or from what an earlier pass drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LoadOps {
    /// Colour (unless the target keeps its own), `ids` and depth cleared.
    Clear,
    /// Depth cleared; colour and `ids` as they are: the frame's composite in compute writes
    /// every pixel's colour, and a pixel's `ids` count only where the depth buffer holds a
    /// surface ([`MainPass::record`]'s `composited`).
    ClearDepth,
    Load,
}

pub struct MainPass {
    /// Every fragment shaded here: one pipeline per [`Variant`] and the pulled blend, drawing
    /// into the colour target.
    forward: PipelineSet,
    /// Where the renderer can defer (`passes::deferred`): the same variants drawing into an
    /// `ids` target too ([`IDS_FORMAT`], the second colour attachment), those flagged (by
    /// `Variant as usize`) deferred. A frame draws with one set or the other
    /// (`Detail::deferred`, which the adaptive frame may turn off).
    deferred: Option<(PipelineSet, [bool; Variant::ALL.len()])>,
    pub color_format: wgpu::TextureFormat,
    /// Whether the fragment shaders sRGB-encode their colour for `color_format`
    /// ([`encodes_srgb`]; `FrameUniforms::encode_srgb`).
    pub encodes_srgb: bool,
    /// [`CLEAR_COLOR`] as `color_format` stores it.
    clear_color: wgpu::Color,
    /// What the composite in compute writes where nothing was drawn
    /// ([`MainPass::background_texel`]).
    background: glam::Vec4,
}

/// One set of the main pass's pipelines, all on `Layouts::render`.
pub struct PipelineSet {
    /// One pipeline per [`Variant`], indexed by `Variant as usize`.
    pipelines: Vec<wgpu::RenderPipeline>,
    /// The blend variant drawn as one pulled draw (`vs_pulled`, no vertex buffer): the blended
    /// pass where the frame has no draw count ([`SceneBuffers::pulls_blend`]).
    pulled_blend: wgpu::RenderPipeline,
    /// The colour attachments' formats.
    targets: Vec<Option<wgpu::TextureFormat>>,
}

/// A render pass's pipelines, one per [`Variant`] (`Variant as usize`), and the attachments
/// they draw into: what the GPU-driven draws ([`indirect`]), the baseline's ([`baseline`]) and
/// its bundles ([`bundle`]) need of a pass, so the main pass and the shadow pass
/// (`passes::shadow`) share them.
pub trait VariantPipelines {
    /// Variant `variant`'s pipeline.
    fn variant_pipeline(&self, variant: usize) -> &wgpu::RenderPipeline;
    /// The colour attachments' formats; none for a depth-only pass.
    fn color_targets(&self) -> Vec<Option<wgpu::TextureFormat>>;
    /// The depth attachment's format.
    fn depth_format(&self) -> wgpu::TextureFormat {
        crate::gpu::target::DEPTH_FORMAT
    }
}

impl VariantPipelines for PipelineSet {
    fn variant_pipeline(&self, variant: usize) -> &wgpu::RenderPipeline {
        &self.pipelines[variant]
    }

    fn color_targets(&self) -> Vec<Option<wgpu::TextureFormat>> {
        self.targets.clone()
    }
}

/// What distinguishes one render variant from another: only shader entry and rasteriser state.
pub struct VariantState {
    pub fragment_entry: &'static str,
    pub cull_mode: Option<wgpu::Face>,
}

pub fn variant_state(variant: Variant) -> VariantState {
    match variant {
        Variant::Opaque => VariantState { fragment_entry: "fs_opaque", cull_mode: Some(wgpu::Face::Back) },
        Variant::Masked => VariantState { fragment_entry: "fs_masked", cull_mode: Some(wgpu::Face::Back) },
        Variant::DoubleSided => VariantState { fragment_entry: "fs_opaque", cull_mode: None },
        Variant::Debug => VariantState { fragment_entry: "fs_debug", cull_mode: Some(wgpu::Face::Back) },
        // Back faces are discarded in the shader unless the material is double-sided.
        Variant::Blend => VariantState { fragment_entry: "fs_blend", cull_mode: None },
    }
}

/// The render pipeline of one variant on `layout` (the universal layout everywhere but tests).
pub fn variant_spec(
    layout: &wgpu::PipelineLayout,
    shader: &ShaderSpec,
    variant: Variant,
    color_format: wgpu::TextureFormat,
) -> RenderSpec {
    let state = variant_state(variant);
    let vertex = vertex_layout();
    RenderSpec {
        constants: Default::default(),
        label: format!("{NAME} {}", variant.name()),
        layout: layout.clone(),
        shader: shader.clone(),
        vertex_entry: "vs_main".into(),
        fragment_entry: Some(state.fragment_entry.into()),
        vertex_buffers: vec![VertexBufferSpec {
            array_stride: vertex.array_stride,
            step_mode: vertex.step_mode,
            attributes: vertex.attributes.to_vec(),
        }],
        targets: vec![Some(wgpu::ColorTargetState {
            format: color_format,
            blend: (variant == Variant::Blend).then_some(wgpu::BlendState::ALPHA_BLENDING),
            write_mask: wgpu::ColorWrites::ALL,
        })],
        primitive: wgpu::PrimitiveState {
            topology: wgpu::PrimitiveTopology::TriangleList,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: state.cull_mode,
            ..Default::default()
        },
        // Blended surfaces are hidden by nearer opaque ones and hide nothing themselves.
        depth_stencil: Some(wgpu::DepthStencilState { depth_write_enabled: variant != Variant::Blend, ..depth_test() }),
        multisample: Default::default(),
    }
}

/// Whether variant `variant` with `inputs` can be deferred: opaque, masked or double-sided,
/// and none of its materials reads what the shade dispatch does not (vertex colours, a second
/// coordinate set).
pub fn deferrable(variant: Variant, inputs: SurfaceInputs) -> bool {
    matches!(variant, Variant::Opaque | Variant::Masked | Variant::DoubleSided) && !inputs.optional
}

/// Per variant (`Variant as usize`), whether the shade dispatch can shade every material of
/// `scene` that the variant draws: each is one the compute rasteriser could draw
/// (`soft_rasterisable`: textures on the first coordinate set only), and no mesh has vertex
/// colours.
pub fn deferrable_variants(scene: &crate::scene::Scene) -> [bool; Variant::ALL.len()] {
    let colors = scene.meshes.meshes.iter().any(|mesh| mesh.has_colors);
    Variant::ALL.map(|variant| {
        !colors
            && scene.materials.iter().filter(|m| m.variant == variant).all(crate::gpu_scene::prepare::soft_rasterisable)
    })
}

/// `spec` drawing into the `ids` target as well (a forward-shaded variant of a deferred
/// renderer): `NO_IDS` from its fragment entry's `_ids` twin, so the composite leaves its
/// pixels as they are; the blend variant, drawn after the composite, leaves the target alone.
fn with_ids_target(mut spec: RenderSpec) -> RenderSpec {
    let blended = spec.targets[0].as_ref().is_some_and(|target| target.blend.is_some());
    spec.targets.push(Some(wgpu::ColorTargetState {
        format: IDS_FORMAT,
        blend: None,
        write_mask: if blended { wgpu::ColorWrites::empty() } else { wgpu::ColorWrites::ALL },
    }));
    if !blended {
        spec.fragment_entry = spec.fragment_entry.map(|entry| format!("{entry}_ids"));
    }
    spec
}

/// `spec` of `variant` deferred: the entry points of `shaders/draw_vis.wgsl` in `vis`, which
/// write the `ids` target and leave the colour to the composite.
fn deferred_spec(spec: RenderSpec, vis: &ShaderSpec, variant: Variant) -> RenderSpec {
    let mut spec = with_ids_target(spec);
    spec.targets[0].as_mut().expect("the colour target").write_mask = wgpu::ColorWrites::empty();
    spec.targets[1].as_mut().expect("the ids target").write_mask = wgpu::ColorWrites::ALL;
    let fragment = if variant == Variant::Masked { "fs_vis_masked" } else { "fs_vis" };
    RenderSpec {
        label: format!("{} deferred", spec.label),
        shader: vis.clone(),
        vertex_entry: "vs_vis".into(),
        fragment_entry: Some(fragment.into()),
        ..spec
    }
}

/// The blend variant's pipeline `blend` as one pulled draw: its vertices read from the arenas
/// by `vs_pulled`, no vertex buffer.
fn pulled_blend_spec(blend: &RenderSpec) -> RenderSpec {
    RenderSpec {
        label: format!("{} pulled", blend.label),
        vertex_entry: "vs_pulled".into(),
        vertex_buffers: Vec::new(),
        ..blend.clone()
    }
}

/// What one variant's pipeline reads beyond position, normal, material and level: the draw
/// shader's `OPTIONAL_SURFACE_INPUTS`, `SURFACE_TEXTURES` and `NORMAL_MAPS`. What a variant does
/// not read is left out of its shader, so the vertex shader hands the rasteriser less: on the
/// H200 that is what the main pass of small triangles is bound by (docs/BENCHMARKS.md §
/// "Vertex inputs and the main pass").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SurfaceInputs {
    /// Vertex colours and a normal map's second coordinate set.
    pub optional: bool,
    /// Texture coordinates, for a base-colour texture or a normal map.
    pub textures: bool,
    /// Tangents, for a normal map.
    pub normal_maps: bool,
}

/// The draw shader's `override` constants of the three inputs, as `shaders/draw.wgsl` names
/// them.
const SURFACE_INPUT_CONSTANTS: [&str; 3] = ["OPTIONAL_SURFACE_INPUTS", "SURFACE_TEXTURES", "NORMAL_MAPS"];

impl SurfaceInputs {
    /// Everything: for scenes that will change (live scenes), whose materials are not known
    /// when the pipelines are made.
    pub const ALL: Self = Self { optional: true, textures: true, normal_maps: true };
    pub const NONE: Self = Self { optional: false, textures: false, normal_maps: false };

    /// Per variant (indexed by `Variant as usize`), what the scene's materials of that
    /// variant read. Vertex colours and second-set normal maps count for every lit variant
    /// (`uses_optional_inputs`); the debug variant reads none of them.
    pub fn of_scene(scene: &crate::scene::Scene) -> [Self; Variant::ALL.len()] {
        let optional = uses_optional_inputs(scene);
        Variant::ALL.map(|variant| {
            if variant == Variant::Debug {
                return Self::NONE;
            }
            let (mut textures, mut normal_maps) = (false, false);
            for material in scene.materials.iter().filter(|m| m.variant == variant) {
                textures |= material.textures().next().is_some();
                normal_maps |= material.normal_layer.is_some();
            }
            Self { optional, textures, normal_maps }
        })
    }

    /// The override constants that select these inputs in the draw shader: one shader module
    /// for every variant, each pipeline specialised by its key.
    pub fn constants(self) -> Constants {
        let values = [self.optional, self.textures, self.normal_maps];
        Constants(SURFACE_INPUT_CONSTANTS.iter().zip(values).map(|(&name, on)| (name, Constants::flag(on))).collect())
    }
}

/// Whether a scene draws vertex colours (a mesh has them) or a texture on another coordinate
/// set than its material's main one.
pub fn uses_optional_inputs(scene: &crate::scene::Scene) -> bool {
    scene.meshes.meshes.iter().any(|mesh| mesh.has_colors)
        || scene.materials.iter().any(crate::scene::Material::textures_on_other_set)
}

impl MainPass {
    /// Gets every variant's pipeline from the cache, compiling them in parallel, each from the
    /// draw shader with its variant's `inputs` (indexed by `Variant as usize`). Where
    /// `deferred` (a flag per variant: its materials can be shaded by the shade dispatch,
    /// [`deferrable_variants`]), every pipeline draws into an `ids` target too, and the
    /// variants flagged whose inputs allow it ([`deferrable`]) are deferred
    /// (`passes::deferred`).
    pub fn new(
        cache: &PipelineCache,
        layouts: &Layouts,
        color_format: wgpu::TextureFormat,
        inputs: [SurfaceInputs; Variant::ALL.len()],
        deferred: Option<[bool; Variant::ALL.len()]>,
    ) -> Result<Self, PipelineError> {
        let composed = SHADER.spec(WORKGROUP_SIZE);
        let forward: Vec<_> = Variant::ALL
            .iter()
            .map(|&v| RenderSpec {
                constants: inputs[v as usize].constants(),
                ..variant_spec(&layouts.render, &composed, v, color_format)
            })
            .collect();
        let flags = deferred.map(|flags| Variant::ALL.map(|v| flags[v as usize] && deferrable(v, inputs[v as usize])));
        let mut specs = forward.clone();
        specs.push(pulled_blend_spec(&forward[Variant::Blend as usize]));
        if let Some(flags) = flags {
            let vis = VIS_SHADER.spec(WORKGROUP_SIZE);
            let start = specs.len();
            specs.extend(Variant::ALL.iter().zip(&forward).map(|(&v, spec)| match flags[v as usize] {
                true => deferred_spec(spec.clone(), &vis, v),
                false => with_ids_target(spec.clone()),
            }));
            specs.push(pulled_blend_spec(&specs[start + Variant::Blend as usize]));
        }
        let mut pipelines = render_all(cache, &specs).into_iter().collect::<Result<Vec<_>, _>>()?.into_iter();
        // Each set's variants in order, then its pulled blend.
        let mut set = |targets: Vec<Option<wgpu::TextureFormat>>| {
            let variants: Vec<_> = pipelines.by_ref().take(Variant::ALL.len()).collect();
            let pulled_blend = pipelines.next().expect("each set's pulled blend was asked for");
            PipelineSet { pipelines: variants, pulled_blend, targets }
        };
        let forward = set(vec![Some(color_format)]);
        let deferred = flags.map(|flags| (set(vec![Some(color_format), Some(IDS_FORMAT)]), flags));
        let encodes_srgb = encodes_srgb(color_format);
        let clear_color = color::stored_clear(encodes_srgb);
        let background = color::background_texel();
        Ok(Self { forward, deferred, color_format, encodes_srgb, clear_color, background })
    }

    /// What the composite in compute writes where nothing was drawn: the clear's byte in each
    /// channel, as `color::background_texel` explains.
    pub fn background_texel(&self) -> glam::Vec4 {
        self.background
    }

    /// Whether the renderer can defer: it has the pipelines that draw into an `ids` target
    /// (`passes::deferred`).
    pub fn deferred(&self) -> bool {
        self.deferred.is_some()
    }

    /// Whether variant `variant` is deferred in a deferred frame.
    pub fn defers(&self, variant: Variant) -> bool {
        self.deferred.as_ref().is_some_and(|(_, drawn)| drawn[variant as usize])
    }

    /// Whether this main pass draws `flags`' deferred variants as [`MainPass::new`] would
    /// with them (the same inputs): a new scene keeps it where it does.
    pub fn defers_as(&self, flags: [bool; Variant::ALL.len()], inputs: [SurfaceInputs; Variant::ALL.len()]) -> bool {
        let wanted = Variant::ALL.map(|v| flags[v as usize] && deferrable(v, inputs[v as usize]));
        self.deferred.as_ref().is_some_and(|(_, drawn)| *drawn == wanted)
    }

    /// The pipelines of a deferred frame (`deferred`: it draws into an `ids` target) or of a
    /// forward one.
    pub fn set(&self, deferred: bool) -> &PipelineSet {
        match (&self.deferred, deferred) {
            (Some((set, _)), true) => set,
            (None, true) => panic!("a deferred frame on a main pass without deferred pipelines"),
            (_, false) => &self.forward,
        }
    }

    /// Draws once with every pipeline into a 1×1 target whose contents are discarded (see
    /// `frame::prewarm`), the compute rasteriser's resolve pipelines too where there is one:
    /// the forward set, then where `ids` is given the deferred set.
    pub fn prewarm(
        &self,
        frame: &mut FrameEncoder<'_>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        target: &FrameTarget<'_>,
        ids: Option<&wgpu::TextureView>,
        raster: Option<&RasterPass>,
    ) {
        for ids in std::iter::once(None).chain(ids.map(Some)) {
            let set = self.set(ids.is_some());
            let mut pass = self.begin(frame, NAME, target, ids, LoadOps::Clear, wgpu::StoreOp::Discard);
            Self::bind_scene(&mut pass, buffers, view);
            // The identity slot of object 0, or the padding element of an empty scene.
            let instance = if buffers.object_count > 0 { buffers.identity_base } else { 0 };
            for pipeline in &set.pipelines {
                pass.set_pipeline(pipeline);
                pass.draw_indexed(0..3, 0, instance..instance + 1);
            }
            // Its first object's words: zero until a blend sort writes them, so no index is read.
            pass.set_pipeline(&set.pulled_blend);
            pass.draw(0..3, 0..1);
            // A deferred frame does not resolve (its composite does).
            if let Some(raster) = raster.filter(|_| ids.is_none()) {
                raster.prewarm_resolve(&mut pass, view);
            }
        }
    }

    /// Records `draws`: into a cleared target in the first (or only) phase, over the first
    /// phase's colour and depth in the second; `ids` is the deferred variants' target, where
    /// the renderer is deferred ([`MainPass::deferred`]). Where `composited` (the frame's
    /// composite runs in compute, `passes::deferred`) the first phase clears only the depth:
    /// the composite writes every pixel's colour (the clear colour where nothing was drawn,
    /// `FrameUniforms::paint_background`), and the readers of `ids` take a pixel's id only
    /// where the depth buffer holds a surface, which every fragment that writes depth
    /// writes an id with. On the H100, whose few graphics units clear slowly, the
    /// two clears were a good part of the frame (docs/BENCHMARKS.md § "The main pass's clears").
    #[allow(clippy::too_many_arguments)] // the targets, the scene's and the view's bindings, the draws, the phase
    pub fn record(
        &self,
        frame: &mut FrameEncoder<'_>,
        target: &FrameTarget<'_>,
        ids: Option<&wgpu::TextureView>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        prepared: &PreparedScene,
        draws: Draws<'_>,
        phase: Phase,
        composited: bool,
    ) {
        let name = phase.pass_name(NAME, LATE_NAME);
        profile_scope!(name);
        let load = match phase {
            Phase::Late => LoadOps::Load,
            Phase::Early | Phase::Only if composited && ids.is_some() => LoadOps::ClearDepth,
            Phase::Early | Phase::Only => LoadOps::Clear,
        };
        let mut pass = self.begin(frame, name, target, ids, load, wgpu::StoreOp::Store);
        match draws {
            Draws::Indirect(indirect, raster) => {
                // The resolve first (the depth test keeps the nearer of it and the hardware's
                // draws either way): lavapipe (Mesa 22.3) applies the count of a preceding
                // multi_draw_indexed_indirect_count to a draw_indirect that follows it.
                if let Some(raster) = raster {
                    raster.resolve(&mut pass, buffers, view);
                }
                Self::bind_scene(&mut pass, buffers, view);
                indirect::record(self.set(ids.is_some()), &mut pass, buffers, prepared, indirect);
            }
            Draws::Baseline(visible) => {
                Self::bind_scene(&mut pass, buffers, view);
                baseline::record(self.set(ids.is_some()), &mut pass, buffers, prepared, visible);
            }
            // A bundle sets its own bind groups and buffers: pass state does not reach it.
            Draws::Bundle(recorded) => pass.execute_bundle(&recorded.bundle, &recorded.commands),
        }
    }

    /// Records the blended pass ([`blend::NAME`]): over the last phase's colour and depth, the
    /// blend variant's pipeline and, GPU-driven, one multi-draw over the blend sort's draws,
    /// behind its count where `counted`; without a count, one pulled draw where the arenas can
    /// be read ([`SceneBuffers::pulls_blend`]), a draw slot per blended object where they
    /// cannot. A deferred renderer's CPU modes draw their blended objects here too (after the
    /// composite), one draw each or from their bundle.
    #[allow(clippy::too_many_arguments)] // the targets, the scene's and the view's bindings, the draws
    pub fn record_blend(
        &self,
        frame: &mut FrameEncoder<'_>,
        target: &FrameTarget<'_>,
        ids: Option<&wgpu::TextureView>,
        buffers: &SceneBuffers,
        view: &ViewBuffers,
        prepared: &PreparedScene,
        draws: BlendDraws<'_>,
    ) {
        profile_scope!(blend::NAME);
        let mut pass = self.begin(frame, blend::NAME, target, ids, LoadOps::Load, wgpu::StoreOp::Store);
        let counted = match draws {
            BlendDraws::Sorted { counted } => counted,
            BlendDraws::Baseline(visible) => {
                Self::bind_scene(&mut pass, buffers, view);
                baseline::record(self.set(ids.is_some()), &mut pass, buffers, prepared, visible);
                return;
            }
            BlendDraws::Bundle(recorded) => {
                pass.execute_bundle(&recorded.bundle, &recorded.commands);
                return;
            }
        };
        Self::bind_scene(&mut pass, buffers, view);
        let set = self.set(ids.is_some());
        if buffers.pulls_blend(counted) {
            pass.set_pipeline(&set.pulled_blend);
            pass.draw_indirect(&buffers.draws, buffers.pulled_blend_offset());
            return;
        }
        pass.set_pipeline(&set.pipelines[Variant::Blend as usize]);
        let offset = buffers.blend_draw_base as u64 * DRAW_ARGS_SIZE;
        if counted {
            let count_offset = COUNTER_BLEND as u64 * 4;
            pass.multi_draw_indexed_indirect_count(
                &buffers.draws,
                offset,
                &buffers.draw_counts,
                count_offset,
                buffers.blend_capacity,
            );
        } else {
            pass.multi_draw_indexed_indirect(&buffers.draws, offset, buffers.blend_capacity);
        }
    }

    /// Opens the pass: colour, depth and `ids` (where deferred) cleared or loaded, all stored
    /// as `store` says (a frame keeps its depth for the pyramid pass and the second phase;
    /// prewarming discards them).
    fn begin<'f>(
        &self,
        frame: &'f mut FrameEncoder<'_>,
        name: &'static str,
        target: &FrameTarget<'_>,
        ids: Option<&wgpu::TextureView>,
        load: LoadOps,
        store: wgpu::StoreOp,
    ) -> CountingRenderPass<'f> {
        let (color, depth) = match load {
            LoadOps::Clear if target.keep_color => (wgpu::LoadOp::Load, wgpu::LoadOp::Clear(1.0)),
            LoadOps::Clear => (wgpu::LoadOp::Clear(self.clear_color), wgpu::LoadOp::Clear(1.0)),
            LoadOps::ClearDepth => (wgpu::LoadOp::Load, wgpu::LoadOp::Clear(1.0)),
            LoadOps::Load => (wgpu::LoadOp::Load, wgpu::LoadOp::Load),
        };
        let no_ids = f64::from(NO_IDS);
        let ids_load = match load {
            LoadOps::Clear => wgpu::LoadOp::Clear(wgpu::Color { r: no_ids, g: no_ids, b: no_ids, a: no_ids }),
            LoadOps::ClearDepth | LoadOps::Load => wgpu::LoadOp::Load,
        };
        let ids = ids.map(|view| wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load: ids_load, store },
        });
        let attachments = [
            Some(wgpu::RenderPassColorAttachment {
                view: target.color,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: color, store },
            }),
            ids,
        ];
        let count = 1 + usize::from(attachments[1].is_some());
        frame.render_pass(
            name,
            &attachments[..count],
            Some(wgpu::RenderPassDepthStencilAttachment {
                view: target.depth,
                depth_ops: Some(wgpu::Operations { load: depth, store }),
                stencil_ops: None,
            }),
        )
    }

    /// Sets the three bind groups and the mesh arena's buffers: once per pass, they survive
    /// every `set_pipeline` because every variant uses the same layout.
    pub(crate) fn bind_scene(pass: &mut CountingRenderPass<'_>, buffers: &SceneBuffers, view: &ViewBuffers) {
        pass.set_bind_group(FRAME.index, &view.frame_bind_group);
        pass.set_bind_group(SCENE.index, &buffers.scene_bind_group);
        pass.set_bind_group(TEXTURES.index, &buffers.texture_bind_group);
        pass.set_vertex_buffer(0, &buffers.vertices);
        pass.set_index_buffer(&buffers.indices);
    }
}
