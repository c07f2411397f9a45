//! The universal layout: every bind group is declared here, once, as a table of named bindings.
//! The same table makes the wgpu bind group layout, the WGSL declarations (prepended to each
//! shader by `gpu_scene::shader`, so no shader writes an `@binding` number) and the bind
//! groups (entries looked up by name). Every render pipeline is built on the one
//! [`Layouts::render`] pipeline layout; materials differ by pipeline variant, never by layout,
//! so the main pass sets its bind groups once and they survive every `set_pipeline`.
//!
//! | group | render pipelines                          | cull and build pipelines         |
//! |-------|-------------------------------------------|----------------------------------|
//! | 0     | [`FRAME`]: frame uniforms                 | [`FRAME`]                        |
//! | 1     | [`SCENE`]: objects, instances, materials, | [`CULL_IO`]: cull records,       |
//! |       | vertex inputs, arenas (read only)         | batches (read only), instances,  |
//! |       |                                           | counts, draws, visibility (rw)   |
//! | 2     | [`TEXTURES`]: a texture array per size    | [`HIZ`]: the depth pyramid       |
//! |       | class and role, one sampler               |                                  |
//!
//! The pyramid pass (depth → Hi-Z mip chain) has a layout of its own: group 0 is
//! [`PYRAMID_IO`] (the depth, the level it reduces and the level it writes), one bind group per
//! level. So has the scatter pass (changed object records → `objects[]` and `cull_records[]`): group 0 is
//! [`SCATTER_IO`]. The compute rasteriser's pass, its shade dispatch, its mark dispatch and its
//! resolve pipeline have [`FRAME`] and [`RASTER_IO`] / [`SHADE_IO`] / [`MARK_IO`] /
//! [`RESOLVE_IO`] (the resolve is drawn in the main pass before its draws, so it sets its own
//! group 1 there). The shadow merge (a
//! cascade's small casters into its layer) has [`SHADOW_MERGE_IO`] alone, and so has the
//! deferred composite in compute [`COMPOSITE_IO`] (the frame's uniforms in it).

use std::fmt::Write;
use std::sync::Arc;

use crate::pipelines::PipelineCache;
use crate::tunables::BIND_GROUPS;

/// What one binding holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingKind {
    /// `var<uniform>` of the WGSL type.
    Uniform(&'static str),
    /// `var<storage, read>` of the WGSL type.
    StorageRead(&'static str),
    /// `var<storage, read_write>` of the WGSL type.
    StorageReadWrite(&'static str),
    /// A filterable `texture_2d_array<f32>`.
    TextureArray,
    /// A filtering sampler.
    Sampler,
    /// A single-sampled `texture_depth_2d`, read with `textureLoad`.
    DepthTexture,
    /// A `texture_depth_2d_array`, read through a comparison sampler.
    DepthTextureArray,
    /// A comparison sampler (`sampler_comparison`).
    ComparisonSampler,
    /// A `texture_2d<f32>` of a format that cannot be filtered (R32Float), read with
    /// `textureLoad`.
    UnfilterableTexture,
    /// A write-only `texture_storage_2d` of this format.
    StorageTextureWrite(wgpu::TextureFormat),
    /// A `texture_2d<u32>` (the deferred variants' `ids`, [`IDS_FORMAT`]), read with
    /// `textureLoad`.
    UintTexture,
}

/// The WGSL texel format of a storage texture format. Panics on a format the engine does not
/// use as storage: that is a typo in a table, caught by every test that composes its shader.
fn wgsl_storage_format(format: wgpu::TextureFormat) -> &'static str {
    match format {
        wgpu::TextureFormat::R32Float => "r32float",
        wgpu::TextureFormat::Rgba32Float => "rgba32float",
        wgpu::TextureFormat::Rgba16Float => "rgba16float",
        wgpu::TextureFormat::Rgba8Unorm => "rgba8unorm",
        other => panic!("no WGSL storage texel format for {other:?}; add it to wgsl_storage_format"),
    }
}

/// One binding: its WGSL name and kind. Its number is its position in the group.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub name: &'static str,
    pub kind: BindingKind,
    /// The stages that see it, where fewer than its group's ([`Group::stages_of`]).
    pub stages: Option<wgpu::ShaderStages>,
}

/// A bind group layout, as a table.
#[derive(Debug)]
pub struct Group {
    pub index: u32,
    pub label: &'static str,
    pub visibility: wgpu::ShaderStages,
    pub bindings: &'static [Binding],
    /// WGSL functions generated from the table, appended to its declarations.
    pub functions: Option<fn() -> String>,
}

const fn binding(name: &'static str, kind: BindingKind) -> Binding {
    Binding { name, kind, stages: None }
}

/// A binding only `stages` see: it counts against their limits alone.
const fn binding_in(name: &'static str, kind: BindingKind, stages: wgpu::ShaderStages) -> Binding {
    Binding { name, kind, stages: Some(stages) }
}

const DRAWING: wgpu::ShaderStages = wgpu::ShaderStages::VERTEX_FRAGMENT;

/// Group 0 of every pipeline: the view's uniforms, and the sun's shadow map its surfaces read
/// (one layer per cascade, `frame::shadows`; a 1×1 placeholder for a view without shadows, and
/// for the cascades themselves, which draw into it), with its comparison sampler.
pub const FRAME: Group = Group {
    index: 0,
    label: "frame",
    visibility: wgpu::ShaderStages::COMPUTE.union(DRAWING),
    bindings: &[
        binding("frame", BindingKind::Uniform("FrameUniforms")),
        binding("shadow_map", BindingKind::DepthTextureArray),
        binding("shadow_sampler", BindingKind::ComparisonSampler),
        // Where a deferred frame composites in compute (`passes::deferred`), the compute
        // rasteriser's depth per pixel it won, which the depth buffer then lacks: the blended
        // pass tests against it (`frame.soft_depth_test`). A 1×1 placeholder elsewhere.
        // Fragments only: the compute stage of the shade layout is at WebGPU's 16 sampled
        // textures.
        binding_in("soft_depth", BindingKind::UnfilterableTexture, wgpu::ShaderStages::FRAGMENT),
    ],
    functions: None,
};

/// Group 1 of render pipelines: the scene's tables, read only.
pub const SCENE: Group = Group {
    index: 1,
    label: "scene",
    visibility: DRAWING,
    bindings: &[
        binding("objects", BindingKind::StorageRead("array<GpuObject>")),
        binding("instances", BindingKind::StorageRead("array<u32>")),
        binding("materials", BindingKind::StorageRead("array<GpuMaterial>")),
        // The optional vertex inputs, by vertex index (see `GpuVertex`): tangents as four
        // signed-normalised 16-bit values, colours as four unsigned-normalised ones,
        // TEXCOORD_1 as floats.
        binding("vertex_tangents", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("vertex_colors", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("vertex_uv1", BindingKind::StorageRead("array<vec2<f32>>")),
        // The arenas, for the pulled blended pass (`vs_pulled`, where there is no draw count):
        // vertices as plain words, 8 per `GpuVertex`, and indices; a placeholder each where
        // they are too large to bind (`SceneBuffers::pulls_blend`). Eight storage buffers: the
        // default `max_storage_buffers_per_shader_stage`, which an embedding application's
        // device may have.
        binding("vertex_words", BindingKind::StorageRead("array<f32>")),
        binding("indices", BindingKind::StorageRead("array<u32>")),
    ],
    functions: Some(visibility_wgsl),
};

/// Group 2 of render pipelines: the texture slots, one `texture_2d_array` with mips per size
/// class (`tunables::SMALLEST_TEXTURE_CLASS` to `LARGEST_TEXTURE_CLASS`) and role (sRGB base
/// colour, then linear normal maps), named `{encoding}_{size}` (a 1×1 placeholder where no
/// texture uses one; `gpu_scene::textures` keeps the names in step with the classes), and one
/// repeating trilinear sampler.
pub const TEXTURES: Group = Group {
    index: 2,
    label: "textures",
    // The compute rasteriser's raster and shade dispatches sample them too.
    visibility: wgpu::ShaderStages::FRAGMENT.union(wgpu::ShaderStages::COMPUTE),
    bindings: &[
        binding("srgb_64", BindingKind::TextureArray),
        binding("srgb_128", BindingKind::TextureArray),
        binding("srgb_256", BindingKind::TextureArray),
        binding("srgb_512", BindingKind::TextureArray),
        binding("srgb_1024", BindingKind::TextureArray),
        binding("srgb_2048", BindingKind::TextureArray),
        binding("linear_64", BindingKind::TextureArray),
        binding("linear_128", BindingKind::TextureArray),
        binding("linear_256", BindingKind::TextureArray),
        binding("linear_512", BindingKind::TextureArray),
        binding("linear_1024", BindingKind::TextureArray),
        binding("linear_2048", BindingKind::TextureArray),
        binding("material_sampler", BindingKind::Sampler),
        // The environment's prefiltered light (`passes::environment`): radiance by roughness
        // (one layer, a mip per roughness step), and the irradiance and BRDF table as the two
        // layers of one array (the fragment stage's 16 sampled textures hold them with the
        // slots and the shadow map), read through their own clamping sampler.
        binding("environment_radiance", BindingKind::TextureArray),
        binding("environment_tables", BindingKind::TextureArray),
        binding("environment_sampler", BindingKind::Sampler),
    ],
    functions: Some(super::textures::sampling_wgsl),
};

/// Group 0 of the environment's prefilter (`passes::environment`): the sky's parameters and
/// the level a dispatch writes, one bind group per level.
pub const ENVIRONMENT_IO: Group = Group {
    index: 0,
    label: "environment io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("params", BindingKind::Uniform("EnvironmentParams")),
        binding("level", BindingKind::StorageTextureWrite(wgpu::TextureFormat::Rgba16Float)),
    ],
    functions: None,
};

/// Group 1 of the cull and build compute pipelines: what they read and write. One table for
/// both passes, so they cannot disagree on a binding.
pub const CULL_IO: Group = Group {
    index: 1,
    label: "cull io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("cull_records", BindingKind::StorageRead("array<GpuCullRecord>")),
        binding("batches", BindingKind::StorageRead("array<GpuBatch>")),
        binding("instances", BindingKind::StorageReadWrite("array<u32>")),
        binding("batch_counts", BindingKind::StorageReadWrite("array<atomic<u32>>")),
        binding("draws", BindingKind::StorageReadWrite("array<DrawIndexedIndirectArgs>")),
        binding("draw_counts", BindingKind::StorageReadWrite("array<atomic<u32>>")),
        binding("visibility", BindingKind::StorageReadWrite("array<u32>")),
        binding("raster_args", BindingKind::StorageReadWrite("array<RasterArgs>")),
    ],
    functions: None,
};

/// Group 2 of the cull and build compute pipelines: the depth pyramid the second culling
/// phase tests against (every level, read with `textureLoad`). Made by the pyramid pass at
/// each resize; a 1×1 placeholder is bound where no pyramid is used.
pub const HIZ: Group = Group {
    index: 2,
    label: "hiz",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[binding("pyramid", BindingKind::UnfilterableTexture)],
    functions: None,
};

/// Group 1 of the raster pass (`passes::raster`): what the compute rasteriser reads, and the
/// visibility buffer it writes, one 64-bit word per pixel of the colour target (nearest depth
/// above the payload, inverted so that `atomicMax` keeps the nearest and zero is empty).
/// Vertices are read as plain words, 8 per `GpuVertex` (position, normal, uv).
pub const RASTER_IO: Group = Group {
    index: 1,
    label: "raster io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("objects", BindingKind::StorageRead("array<GpuObject>")),
        binding("batches", BindingKind::StorageRead("array<GpuBatch>")),
        binding("materials", BindingKind::StorageRead("array<GpuMaterial>")),
        binding("instances", BindingKind::StorageRead("array<u32>")),
        binding("draw_counts", BindingKind::StorageRead("array<u32>")),
        binding("vertex_words", BindingKind::StorageRead("array<f32>")),
        binding("indices", BindingKind::StorageRead("array<u32>")),
        binding("pixels", BindingKind::StorageReadWrite("array<atomic<u64>>")),
    ],
    functions: Some(visibility_wgsl),
};

/// Group 1 of the shade dispatch (after the frame's last raster pass): the list of the pixels
/// the raster passes drew (`shade_list`, made by the list dispatch from the visibility buffer:
/// a count, the shade dispatch's arguments, then per pixel its index and its payload word),
/// what shading them needs, and the colours it stores for the resolve. Eight storage buffers,
/// like [`RASTER_IO`]: the default `max_storage_buffers_per_shader_stage`, which an embedding
/// application's device may have.
pub const SHADE_IO: Group = Group {
    index: 1,
    label: "shade io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("objects", BindingKind::StorageRead("array<GpuObject>")),
        binding("batches", BindingKind::StorageRead("array<GpuBatch>")),
        binding("materials", BindingKind::StorageRead("array<GpuMaterial>")),
        binding("instances", BindingKind::StorageRead("array<u32>")),
        binding("vertex_words", BindingKind::StorageRead("array<f32>")),
        binding("vertex_tangents", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("indices", BindingKind::StorageRead("array<u32>")),
        binding("shade_list", BindingKind::StorageRead("array<u32>")),
        binding("shaded", BindingKind::StorageTextureWrite(SHADED_FORMAT)),
        binding("ids", BindingKind::UintTexture),
    ],
    functions: Some(visibility_wgsl),
};

/// Group 1 of the list dispatches before the shading: the visibility buffer, read, and the
/// lists of its drawn pixels, plain and textured, written (`shaders/shade_list.wgsl` says
/// their layout).
pub const SHADE_LIST: Group = Group {
    index: 1,
    label: "shade list",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("pixels", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("shade_list", BindingKind::StorageReadWrite("array<atomic<u32>>")),
        binding("ids", BindingKind::UintTexture),
        // The depth of the deferred pixels, which their list entries carry to the shade (and
        // it to the composite); the compute rasteriser's list binds a stand-in. (In this
        // group, not `shade io`: that one is at WebGPU's 16 sampled textures per stage.)
        binding("depth", BindingKind::DepthTexture),
    ],
    functions: None,
};

/// Group 1 of the mark dispatch after the frame's last raster pass (`shaders/mark.wgsl`): the
/// compute rasteriser's visibility buffer and list, read, and the view's visibility bits, in
/// which it sets the bit of every object that holds a pixel of that buffer.
pub const MARK_IO: Group = Group {
    index: 1,
    label: "mark io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("pixels", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("instances", BindingKind::StorageRead("array<u32>")),
        binding("visibility", BindingKind::StorageReadWrite("array<u32>")),
    ],
    functions: None,
};

/// The format of the shade dispatch's colours: linear, exactly as the draw shader's fragments
/// return them (half floats would move one pixel in ten by a step of the 8-bit target).
pub const SHADED_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Float;

/// The format of the deferred variants' `ids` target: one triangle id per pixel
/// (`shaders/shared/visibility.wgsl`). Four bytes, not eight: the H200's main pass costs what
/// its targets' bytes per pixel do (docs/BENCHMARKS.md § "Deferred shading of the hardware's
/// pixels").
pub const IDS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R32Uint;

/// `shaders/shared/visibility.wgsl`, appended to the groups that bind `instances` and
/// `materials` (with `frame` beside them): the deferred variants' triangle ids, and whether a
/// material reads a texture.
fn visibility_wgsl() -> String {
    include_str!("../../shaders/shared/visibility.wgsl").to_owned()
}

/// `shaders/shared/soft_depth.wgsl`, appended to the groups that bind the compute rasteriser's
/// visibility buffer for a composite: its depth per pixel.
fn soft_depth_wgsl() -> String {
    include_str!("../../shaders/shared/soft_depth.wgsl").to_owned()
}

/// Group 1 of the resolve pipeline (drawn first in the frame's last main pass): the visibility
/// buffer for the depth, and the shade dispatch's colours.
pub const RESOLVE_IO: Group = Group {
    index: 1,
    label: "resolve io",
    visibility: wgpu::ShaderStages::FRAGMENT,
    bindings: &[
        binding("pixels", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("shaded", BindingKind::UnfilterableTexture),
        binding("ids", BindingKind::UintTexture),
        // The deferred pixels' colours and depths (the composite); the resolve binds its own
        // `shaded` again.
        binding("drawn", BindingKind::UnfilterableTexture),
    ],
    functions: Some(soft_depth_wgsl),
};

/// Group 0 of the deferred composite in compute (`passes::deferred`, a target whose texture
/// can be written as `COMPOSITE_FORMAT` storage): the view's uniforms, what the full-screen
/// composite reads ([`RESOLVE_IO`]'s inputs and the depth buffer), the target's colour as
/// storage, and the compute rasteriser's depth where its pixel won (`soft_depth` of
/// [`FRAME`], which the blended pass reads). Its own group 0, not [`FRAME`]: that binds
/// `soft_depth` for reading.
pub const COMPOSITE_IO: Group = Group {
    index: 0,
    label: "composite io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("frame", BindingKind::Uniform("FrameUniforms")),
        binding("pixels", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("shaded", BindingKind::UnfilterableTexture),
        binding("ids", BindingKind::UintTexture),
        binding("drawn", BindingKind::UnfilterableTexture),
        binding("depth", BindingKind::DepthTexture),
        binding("color", BindingKind::StorageTextureWrite(COMPOSITE_FORMAT)),
        binding("soft_depth_out", BindingKind::StorageTextureWrite(wgpu::TextureFormat::R32Float)),
    ],
    functions: Some(soft_depth_wgsl),
};

/// The format a target's colour texture must have (viewed as its sRGB twin or as itself) for
/// the composite in compute: 8-bit RGBA, which WebGPU can write as storage (the sRGB form
/// cannot; the composite encodes).
pub const COMPOSITE_FORMAT: wgpu::TextureFormat = crate::gpu::target::STORAGE_COLOR_FORMAT;

/// Group 0 of the pyramid pass: one bind group per level. Level 0 reads `depth` (and binds a
/// 1×1 placeholder as `source_level`); level i reads level i − 1 as `source_level`. Each binds
/// one storage texture, well inside the default `max_storage_textures_per_shader_stage` of 4.
pub const PYRAMID_IO: Group = Group {
    index: 0,
    label: "pyramid io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("depth", BindingKind::DepthTexture),
        binding("source_level", BindingKind::UnfilterableTexture),
        binding("destination_level", BindingKind::StorageTextureWrite(wgpu::TextureFormat::R32Float)),
    ],
    functions: None,
};

/// Group 1 of the pyramid's level-0 pipeline in frames the compute rasteriser draws: its
/// visibility buffer, whose depths the first phase's main pass has not resolved yet.
pub const PYRAMID_SOFT: Group = Group {
    index: 1,
    label: "pyramid soft",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[binding("pixels", BindingKind::StorageRead("array<vec2<u32>>"))],
    functions: None,
};

/// Group 0 of the scatter pass: the changed object records, gathered into one upload, and
/// `objects[]` and `cull_records[]` they are copied into, all as plain words (the pass copies
/// records without reading them). Its constants say how the upload is laid out
/// ([`super::upload`]).
pub const SCATTER_IO: Group = Group {
    index: 0,
    label: "scatter io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("updates", BindingKind::StorageRead("array<u32>")),
        binding("object_words", BindingKind::StorageReadWrite("array<u32>")),
        binding("cull_words", BindingKind::StorageReadWrite("array<u32>")),
    ],
    functions: Some(super::upload::wgsl_constants),
};

/// Group 0 of the shadow merge (`passes::shadow`): the depths to merge with (the far plane in
/// a cascade's first phase, its layer as the first phase left it in the second), the compute
/// rasteriser's visibility buffer of its small casters, and the nearer of the two per texel as
/// 16-bit depths, two to a word, which the phase's depth pass copies into the layer first.
pub const SHADOW_MERGE_IO: Group = Group {
    index: 0,
    label: "shadow merge io",
    visibility: wgpu::ShaderStages::COMPUTE,
    bindings: &[
        binding("layer", BindingKind::DepthTexture),
        binding("pixels", BindingKind::StorageRead("array<vec2<u32>>")),
        binding("merged", BindingKind::StorageReadWrite("array<u32>")),
    ],
    functions: None,
};

/// Every group, for tests and tools.
pub const ALL_GROUPS: [&Group; 16] = [
    &FRAME,
    &SCENE,
    &TEXTURES,
    &CULL_IO,
    &HIZ,
    &PYRAMID_IO,
    &PYRAMID_SOFT,
    &SCATTER_IO,
    &RASTER_IO,
    &SHADE_LIST,
    &SHADE_IO,
    &MARK_IO,
    &RESOLVE_IO,
    &ENVIRONMENT_IO,
    &SHADOW_MERGE_IO,
    &COMPOSITE_IO,
];

/// Every pipeline layout, as (label, its groups in index order), in the order of the
/// [`Layouts`] fields `render` … `environment`; [`Layouts::new`] makes them from this table and
/// tests sum each one's bindings per stage against WebGPU's limits.
pub const PIPELINE_LAYOUTS: [(&str, &[&Group]); 13] = [
    ("universal render layout", &[&FRAME, &SCENE, &TEXTURES]),
    ("cull layout", &[&FRAME, &CULL_IO, &HIZ]),
    ("pyramid layout", &[&PYRAMID_IO]),
    ("pyramid soft layout", &[&PYRAMID_IO, &PYRAMID_SOFT]),
    ("scatter layout", &[&SCATTER_IO]),
    ("raster layout", &[&FRAME, &RASTER_IO, &TEXTURES]),
    ("shade layout", &[&FRAME, &SHADE_IO, &TEXTURES]),
    ("shade list layout", &[&FRAME, &SHADE_LIST]),
    ("mark layout", &[&FRAME, &MARK_IO]),
    ("resolve layout", &[&FRAME, &RESOLVE_IO]),
    ("environment layout", &[&ENVIRONMENT_IO]),
    ("shadow merge layout", &[&SHADOW_MERGE_IO]),
    ("composite layout", &[&COMPOSITE_IO]),
];

const _: () = assert!(TEXTURES.index as usize + 1 == BIND_GROUPS, "command counts cover every group index");

impl Group {
    /// The stages that see `binding`, one of this group's.
    pub fn stages_of(&self, binding: &Binding) -> wgpu::ShaderStages {
        binding.stages.unwrap_or(self.visibility)
    }

    /// The binding number of `name`. Panics on a name the table lacks: that is a typo in the
    /// engine, caught by every test that creates bind groups.
    pub fn binding(&self, name: &str) -> u32 {
        self.bindings
            .iter()
            .position(|b| b.name == name)
            .unwrap_or_else(|| panic!("bind group \"{}\" has no binding \"{name}\"", self.label)) as u32
    }

    /// The bind group entry of `name`.
    pub fn entry<'a>(&self, name: &str, resource: wgpu::BindingResource<'a>) -> wgpu::BindGroupEntry<'a> {
        wgpu::BindGroupEntry { binding: self.binding(name), resource }
    }

    /// The bind group entry of buffer binding `name`, whole buffer.
    pub fn buffer<'a>(&self, name: &str, buffer: &'a wgpu::Buffer) -> wgpu::BindGroupEntry<'a> {
        self.entry(name, buffer.as_entire_binding())
    }

    /// The WGSL declarations of this group, as prepended to every shader that uses it.
    pub fn wgsl(&self) -> String {
        let mut text = String::new();
        for (number, b) in self.bindings.iter().enumerate() {
            let storage_texture;
            let (space, ty) = match b.kind {
                BindingKind::Uniform(ty) => ("<uniform>", ty),
                BindingKind::StorageRead(ty) => ("<storage, read>", ty),
                BindingKind::StorageReadWrite(ty) => ("<storage, read_write>", ty),
                BindingKind::TextureArray => ("", "texture_2d_array<f32>"),
                BindingKind::Sampler => ("", "sampler"),
                BindingKind::DepthTexture => ("", "texture_depth_2d"),
                BindingKind::DepthTextureArray => ("", "texture_depth_2d_array"),
                BindingKind::ComparisonSampler => ("", "sampler_comparison"),
                BindingKind::UnfilterableTexture => ("", "texture_2d<f32>"),
                BindingKind::UintTexture => ("", "texture_2d<u32>"),
                BindingKind::StorageTextureWrite(format) => {
                    storage_texture = format!("texture_storage_2d<{}, write>", wgsl_storage_format(format));
                    ("", storage_texture.as_str())
                }
            };
            let _ = writeln!(text, "@group({}) @binding({number}) var{space} {}: {ty};", self.index, b.name);
        }
        if let Some(functions) = self.functions {
            text.push_str(&functions());
        }
        text
    }

    fn layout(&self, device: &wgpu::Device) -> wgpu::BindGroupLayout {
        let entries: Vec<_> = self
            .bindings
            .iter()
            .enumerate()
            .map(|(number, b)| wgpu::BindGroupLayoutEntry {
                binding: number as u32,
                visibility: self.stages_of(b),
                ty: match b.kind {
                    BindingKind::Uniform(_) => buffer_type(wgpu::BufferBindingType::Uniform),
                    BindingKind::StorageRead(_) => buffer_type(wgpu::BufferBindingType::Storage { read_only: true }),
                    BindingKind::StorageReadWrite(_) => {
                        buffer_type(wgpu::BufferBindingType::Storage { read_only: false })
                    }
                    BindingKind::TextureArray => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2Array,
                        multisampled: false,
                    },
                    BindingKind::Sampler => wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    BindingKind::DepthTexture => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    BindingKind::DepthTextureArray => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Depth,
                        view_dimension: wgpu::TextureViewDimension::D2Array,
                        multisampled: false,
                    },
                    BindingKind::ComparisonSampler => wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                    BindingKind::UnfilterableTexture => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    BindingKind::UintTexture => wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Uint,
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    BindingKind::StorageTextureWrite(format) => wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                },
                count: None,
            })
            .collect();
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(self.label), entries: &entries })
    }
}

fn buffer_type(ty: wgpu::BufferBindingType) -> wgpu::BindingType {
    wgpu::BindingType::Buffer { ty, has_dynamic_offset: false, min_binding_size: None }
}

/// Every layout of the engine, one set per device.
pub struct Layouts {
    pub frame: wgpu::BindGroupLayout,
    pub scene: wgpu::BindGroupLayout,
    pub textures: wgpu::BindGroupLayout,
    pub cull_io: wgpu::BindGroupLayout,
    pub hiz: wgpu::BindGroupLayout,
    pub pyramid_io: wgpu::BindGroupLayout,
    pub pyramid_soft_io: wgpu::BindGroupLayout,
    pub scatter_io: wgpu::BindGroupLayout,
    pub raster_io: wgpu::BindGroupLayout,
    pub shade_io: wgpu::BindGroupLayout,
    pub shade_list_io: wgpu::BindGroupLayout,
    pub mark_io: wgpu::BindGroupLayout,
    pub resolve_io: wgpu::BindGroupLayout,
    pub environment_io: wgpu::BindGroupLayout,
    pub shadow_merge_io: wgpu::BindGroupLayout,
    pub composite_io: wgpu::BindGroupLayout,
    /// The one pipeline layout of every render pipeline (frame, scene, textures).
    pub render: wgpu::PipelineLayout,
    /// The pipeline layout of the cull and build compute pipelines (frame, cull io, hiz).
    pub cull: wgpu::PipelineLayout,
    /// The pipeline layout of the pyramid pass's compute pipelines (pyramid io).
    pub pyramid: wgpu::PipelineLayout,
    /// The pipeline layout of the pyramid's level 0 in frames the compute rasteriser draws
    /// (pyramid io, pyramid soft).
    pub pyramid_soft: wgpu::PipelineLayout,
    /// The pipeline layout of the scatter pass (scatter io).
    pub scatter: wgpu::PipelineLayout,
    /// The pipeline layout of the raster pass (frame, raster io, textures).
    pub raster: wgpu::PipelineLayout,
    /// The pipeline layout of the raster pass's shade dispatch (frame, shade io, textures).
    pub shade: wgpu::PipelineLayout,
    /// The pipeline layout of the dispatches that list the pixels to shade (frame, shade list).
    pub shade_list: wgpu::PipelineLayout,
    /// The pipeline layout of the mark dispatch (frame, mark io).
    pub mark: wgpu::PipelineLayout,
    /// The pipeline layout of the resolve pipeline (frame, resolve io).
    pub resolve: wgpu::PipelineLayout,
    /// The pipeline layout of the environment's prefilter (environment io).
    pub environment: wgpu::PipelineLayout,
    /// The pipeline layout of the shadow merge (shadow merge io).
    pub shadow_merge: wgpu::PipelineLayout,
    /// The pipeline layout of the deferred composite in compute (composite io).
    pub composite: wgpu::PipelineLayout,
}

impl Layouts {
    /// The device's layouts, created on first use and shared by every renderer on the device,
    /// so pipelines keyed on them are compiled once.
    pub fn shared(device: &wgpu::Device, pipelines: &PipelineCache) -> Arc<Layouts> {
        pipelines.shared(|| Layouts::new(device))
    }

    /// A fresh set of layouts. Engine code takes [`Layouts::shared`]; two fresh sets are
    /// different pipeline keys.
    pub fn new(device: &wgpu::Device) -> Self {
        let groups = ALL_GROUPS.map(|group| group.layout(device));
        let made = |group: &Group| {
            let at = ALL_GROUPS.iter().position(|g| g.label == group.label).expect("a group of ALL_GROUPS");
            &groups[at]
        };
        let [render, cull, pyramid, pyramid_soft, scatter, raster, shade, shade_list, mark, resolve, environment, shadow_merge, composite] =
            PIPELINE_LAYOUTS.map(|(label, of)| {
                let bind_group_layouts: Vec<_> = of.iter().map(|&group| made(group)).collect();
                device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some(label),
                    bind_group_layouts: &bind_group_layouts,
                    push_constant_ranges: &[],
                })
            });
        let [frame, scene, textures, cull_io, hiz, pyramid_io, pyramid_soft_io, scatter_io, raster_io, shade_list_io, shade_io, mark_io, resolve_io, environment_io, shadow_merge_io, composite_io] =
            groups;
        Self {
            frame,
            scene,
            textures,
            cull_io,
            hiz,
            pyramid_io,
            pyramid_soft_io,
            scatter_io,
            raster_io,
            shade_io,
            shade_list_io,
            mark_io,
            resolve_io,
            environment_io,
            shadow_merge_io,
            composite_io,
            render,
            cull,
            pyramid,
            pyramid_soft,
            scatter,
            raster,
            shade,
            shade_list,
            mark,
            resolve,
            environment,
            shadow_merge,
            composite,
        }
    }
}
