//! Host twins of the WGSL structs in `shaders/shared/types.wgsl`. One definition each; the
//! `host_structs_match_wgsl` test (tests/shaders.rs) checks every size and member offset
//! against naga's layout of the WGSL.
//!
//! Storage-array elements are `#[repr(C)]` + bytemuck: their Rust layout is their GPU layout,
//! and arrays of them upload with one cast. The uniform block goes through encase, whose
//! `ShaderType` applies WGSL's uniform layout rules when it is written, so no padding field
//! has to be kept in step by hand.

use bytemuck::{Pod, Zeroable};
use encase::ShaderType;
use glam::{Mat4, UVec2, Vec2, Vec3, Vec4};

use crate::tunables::{ANIMATION_CLASSES, MAX_CASCADES};

/// See `FrameUniforms` in WGSL. Written once per frame by the CPU ([`FrameUniforms::to_bytes`]).
#[derive(Clone, Copy, Debug, ShaderType)]
pub struct FrameUniforms {
    pub view_proj: Mat4,
    pub cull_planes: [Vec4; 6],
    pub camera_position: Vec4,
    pub light_direction: Vec4,
    pub animation: [Vec4; ANIMATION_CLASSES as usize],
    pub object_count: u32,
    pub batch_count: u32,
    pub cull_enabled: u32,
    pub compact: u32,
    pub dispatch_width: u32,
    pub identity_base: u32,
    pub time: f32,
    /// xyz: the culling camera's position, from which LOD and object sizes are judged.
    pub lod_origin: Vec4,
    /// 1: pick a level of detail per object; 0: level 0 always.
    pub lod_enabled: u32,
    /// A level whose object-space error `e` (relative to the bounding radius `r`) projects to
    /// at most the error threshold at distance `d` when `e · r · lod_factor ≤ d`.
    pub lod_factor: f32,
    /// 1: cull objects whose projected bounds are smaller than the size threshold.
    pub small_enabled: u32,
    /// An object of bounding radius `r` at nearest distance `d` is too small when
    /// `r · small_factor < d`.
    pub small_factor: f32,
    /// Size of the depth pyramid's level 0 (0 × 0 without occlusion culling).
    pub pyramid_size: UVec2,
    /// Levels of the depth pyramid.
    pub pyramid_levels: u32,
    /// 0: shaded normally; 1: objects coloured by their level of detail; 2: base colour ×
    /// texture, unlit.
    pub debug_view: u32,
    /// 1: the fragment shaders sRGB-encode their colour, for a colour target that stores
    /// values as given (`Rgba8Unorm`, `Bgra8Unorm`, …); 0: they write linear colour, which an
    /// sRGB target encodes itself and a float target keeps.
    pub encode_srgb: u32,
    /// Projection * view of the camera whose depth the pyramid holds.
    pub occlusion_view_proj: Mat4,
    /// Width and height of the colour target, in pixels.
    pub target_size: Vec2,
    /// 1: small objects with `SOFT_BIT` go to the compute rasteriser; 0: none.
    pub soft_enabled: u32,
    /// An object of bounding radius `r` at nearest distance `d` is small enough for the
    /// compute rasteriser when `r · soft_factor ≤ d` (in an orthographic view, when
    /// `r · soft_factor ≤ 1`).
    pub soft_factor: f32,
    /// First slot of the frame's list of compute-rasterised objects in `instances[]`.
    pub soft_base: u32,
    /// Slot of that list where its second part starts, the objects of masked materials (an
    /// alpha test per pixel, a raster pipeline of their own): also the room of the first part.
    pub soft_masked_base: u32,
    /// The room of the list's second part.
    pub soft_masked_capacity: u32,
    /// 1: an orthographic view (a shadow cascade), whose size test is `2r · small_factor`
    /// against the threshold in texels, whatever the distance.
    pub orthographic: u32,
    /// Cascades of the shadow map the view's surfaces read; 0: unshadowed.
    pub shadow_cascades: u32,
    /// Per cascade: the view depth where it ends.
    pub shadow_splits: Vec4,
    /// Per cascade: the world size of one texel.
    pub shadow_texel: Vec4,
    /// Per cascade: world space to its clip space.
    pub shadow_view_proj: [Mat4; MAX_CASCADES],
    /// The inverse of `view_proj`.
    pub inverse_view_proj: Mat4,
    /// xyz: the drawing camera's unit forward vector.
    pub camera_forward: Vec4,
    /// rgb: the sun's colour × illuminance.
    pub light_color: Vec4,
    /// Multiplies the frame's light before tone mapping.
    pub exposure: f32,
    /// 1: Khronos PBR Neutral; 0: none ([`crate::scene::ToneMapping`]).
    pub tone_mapping: u32,
    /// Mip levels of the environment's radiance map.
    pub environment_levels: u32,
    /// 1: the last culling phase lists blended objects for the blend sort; 0 (shadow
    /// cascades): blended objects are not drawn.
    pub blend_list: u32,
    /// Blended objects of the scene: the room of the blend sort's draws.
    pub blend_capacity: u32,
    /// First word of the blend sort's keys in `instances[]` (two words per key).
    pub blend_key_base: u32,
    /// First slot of the blend sort's draws in `draws[]`.
    pub blend_draw_base: u32,
    /// 1: the blended pass is one instanced draw that reads its vertices from the arenas
    /// (`vs_pulled`, where there is no draw count): the blend sort writes its order to
    /// `instances[blend_pull_base..]` and that draw's arguments to slot `blend_capacity` of
    /// its draws; 0: one draw per blended object.
    pub blend_pulled: u32,
    /// First word of the pulled blended pass's objects in `instances[]`, four per object.
    pub blend_pull_base: u32,
    /// First word of the triangle ids' table in `instances[]`, four per batch
    /// (`shaders/shared/visibility.wgsl`).
    pub triangle_table_base: u32,
    /// A shadow cascade's caster test: xyz the direction sunlight travels, w how far a shadow
    /// can run (> 0: the cull also keeps only casters whose shadow can reach the view's slice,
    /// `caster_planes`), 0 in a view's own uniforms.
    pub caster_sweep: Vec4,
    /// The planes (xyz · p + w ≥ 0 inside, xyz of unit length) of the part of the view's
    /// frustum whose surfaces read the cascade, widened by the cascade's filter reach
    /// (`frame::shadows::Cascade::caster_planes`).
    pub caster_planes: [Vec4; 6],
    /// First word in `instances[]` of the cull order: the object id of each of the cull's
    /// slots (`gpu_scene::cells::CullOrder::ids`).
    pub cull_order_base: u32,
    /// First word in `instances[]` of each object's slot in the cull order
    /// (`CullOrder::slots`).
    pub cull_slot_base: u32,
    /// A shadow cascade's own level-of-detail test: a level whose object-space error `e`
    /// (relative to the bounding radius `r`) stays within the view's error threshold over
    /// `SHADOW_FILTER_SLOPE`, in the cascade's texels, when `e · r · shadow_lod_factor ≤ 1`. The
    /// cascade draws the coarser of that level and the view's (the level is then a function of
    /// the view's and of the cascade's fixed texel size: a shadow changes shape only where its
    /// object's image does).
    /// 0: none (a view, or LOD off).
    pub shadow_lod_factor: f32,
    /// 1: this frame composited in compute and the compute rasteriser drew, so the depth
    /// buffer lacks its pixels; the blended pass tests against `soft_depth` too
    /// (`passes::deferred`). 0: the depth buffer holds every opaque pixel.
    pub soft_depth_test: u32,
    /// 1: the first main pass loaded the colour target instead of clearing it, so the
    /// composite in compute writes `background` where no surface was drawn
    /// (`passes::main::MainPass::record`'s `composited`). 0: the clear did, or the caller
    /// keeps its colour there.
    pub paint_background: u32,
    /// [`crate::passes::main::CLEAR_COLOR`] as the clear would have stored it, read without
    /// sRGB encoding (`MainPass::background_texel`).
    pub background: Vec4,
    /// Room of the view's occluder list: the large opaque objects its first culling phase (or
    /// only one) lists to be drawn first, nearest first (`passes::build`); 0: none (shadow
    /// cascades, the modes without batches or a draw count).
    pub occluder_capacity: u32,
    /// First word of the occluder sort's keys in `instances[]` (two words per key).
    pub occluder_key_base: u32,
    /// First slot of the occluders' sorted draws in `draws[]`.
    pub occluder_draw_base: u32,
    /// An object of bounding radius `r` at nearest distance `d` is an occluder when
    /// `r · occluder_factor > d` (the compute rasteriser's test, `soft_factor`, at
    /// [`crate::tunables::OCCLUDER_MIN_RADIUS_PX`]).
    pub occluder_factor: f32,
    /// 1: the frame's mark dispatch (`shaders/mark.wgsl`) sets the visibility bit of every
    /// object that holds a pixel of the compute rasteriser's visibility buffer, after the
    /// second phase, so that phase leaves the bits of the objects the compute rasteriser would
    /// draw clear (`passes::raster::RasterPass::mark`); 0: the second phase sets the bit of
    /// every object it finds visible and not hidden (a cascade, a frame without the compute
    /// rasteriser or without two phases, or `MULTIDRAW_MARK=off`).
    pub mark_seen: u32,
}

/// See `EnvironmentParams` in WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct EnvironmentParams {
    pub zenith: Vec4,
    pub horizon: Vec4,
    pub ground: Vec4,
    pub roughness: f32,
    pub samples: u32,
    pub _pad: [u32; 2],
}

impl FrameUniforms {
    /// The uniform block's bytes in WGSL's uniform layout, written into `bytes` (cleared
    /// first, so a per-frame caller reuses one allocation).
    pub fn write_to(&self, bytes: &mut Vec<u8>) {
        bytes.clear();
        let mut buffer = encase::UniformBuffer::new(std::mem::take(bytes));
        buffer.write(self).expect("a Vec grows to fit the uniform block");
        *bytes = buffer.into_inner();
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.write_to(&mut bytes);
        bytes
    }
}

/// See `GpuObject` in WGSL. One per object, uploaded once; objects are sorted by batch.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct GpuObject {
    pub model: Mat4,
    pub bounds: Vec4,
    pub mesh: u32,
    pub material: u32,
    pub batch: u32,
    /// Orbit class (bits 0-15), spin class (bits 16-30), `tunables::VERTEX_COLORS_BIT`.
    pub animation: u32,
}

/// See `GpuCullRecord` in WGSL: the words of an object the cull passes read, 48 bytes beside
/// its 96-byte [`GpuObject`]. One per object, made on the CPU from the object's record
/// ([`GpuCullRecord::of`]) wherever that record is written, so the GPU's cull and the CPU's
/// reference start from the same bits.
///
/// The animated centre of the object's bounding sphere, spun by (cos s, sin s) about its own
/// Y axis and placed by its model matrix M, is M · R_y(s) · c = cos s · M(c.x, 0, c.z) +
/// sin s · M(c.z, 0, −c.x) + M(0, c.y, 0) + t (M's linear part, t its translation): three
/// vectors, then the orbit about the world's Y axis.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct GpuCullRecord {
    /// The centre's part that goes with the spin's cosine.
    pub spin_cos: Vec3,
    /// World-space radius of the bounding sphere (`GpuObject::bounds.w`).
    pub radius: f32,
    /// The centre's part that goes with the spin's sine.
    pub spin_sin: Vec3,
    /// `GpuObject::batch`.
    pub batch: u32,
    /// The rest of the centre: its Y part and the translation.
    pub fixed: Vec3,
    /// `GpuObject::animation`.
    pub animation: u32,
}

impl GpuCullRecord {
    /// The cull's words of `object`.
    pub fn of(object: &GpuObject) -> Self {
        let c = object.bounds.truncate();
        let linear = glam::Mat3::from_mat4(object.model);
        Self {
            spin_cos: linear * Vec3::new(c.x, 0.0, c.z),
            radius: object.bounds.w,
            spin_sin: linear * Vec3::new(c.z, 0.0, -c.x),
            batch: object.batch,
            fixed: linear * Vec3::new(0.0, c.y, 0.0) + object.model.w_axis.truncate(),
            animation: object.animation,
        }
    }
}

/// See `GpuBatch` in WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct GpuBatch {
    pub first_index: u32,
    pub index_count: u32,
    pub base_vertex: i32,
    pub first_instance: u32,
    pub capacity: u32,
    pub variant: u32,
    pub variant_first_batch: u32,
    pub variant_first_object: u32,
    /// Level of detail this batch draws.
    pub level: u32,
    /// Levels of this batch's mesh; the batches of one (variant, mesh) are consecutive, level
    /// 0 first, and an object's `batch` is its level-0 batch.
    pub level_count: u32,
    /// This level's object-space error divided by the mesh's bounding radius.
    pub relative_error: f32,
}

/// See `GpuTextureRef` in WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct GpuTextureRef {
    /// The coordinate transform's linear part, columns (x, y) then (z, w).
    pub transform: Vec4,
    pub offset: Vec2,
    pub layer: i32,
    pub size_class: u32,
    pub wrap: u32,
    pub uv_set: u32,
    pub scale: f32,
    pub _pad: u32,
}

impl GpuTextureRef {
    /// No texture.
    pub const NONE: GpuTextureRef = GpuTextureRef {
        transform: Vec4::new(1.0, 0.0, 0.0, 1.0),
        offset: Vec2::ZERO,
        layer: -1,
        size_class: 0,
        wrap: 0,
        uv_set: 0,
        scale: 1.0,
        _pad: 0,
    };
}

/// See `GpuMaterial` in WGSL.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct GpuMaterial {
    pub base_color: Vec4,
    pub base_color_texture: GpuTextureRef,
    pub normal_texture: GpuTextureRef,
    pub variant: u32,
    pub alpha_cutoff: f32,
    /// `tunables::READS_TANGENT` | `READS_UV1`: which optional vertex inputs the vertex shader
    /// fetches for this material.
    pub vertex_inputs: u32,
    /// 1: drawn without light.
    pub unlit: u32,
    /// rgb: the light emitted.
    pub emissive: Vec4,
    pub metallic: f32,
    pub roughness: f32,
    /// 1: a blended material whose back faces are drawn too.
    pub double_sided: u32,
    pub _pad: u32,
    pub metallic_roughness_texture: GpuTextureRef,
    /// `scale`: the occlusion's strength.
    pub occlusion_texture: GpuTextureRef,
    pub emissive_texture: GpuTextureRef,
}

/// One vertex as the vertex buffer holds it (`@location(0..3)` in `shaders/draw.wgsl`): the
/// attributes every draw reads. The optional ones of [`crate::mesh::Vertex`] (tangent,
/// `TEXCOORD_1`, colour) are kept in storage arrays beside it, indexed by the same vertex
/// index, and fetched only by the objects whose material or mesh uses them: on the H200 the
/// main pass of small triangles slows when every vertex fetches them (measured: see
/// docs/BENCHMARKS.md § "Vertex inputs and the main pass").
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct GpuVertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
}

/// The indirect arguments, as wgpu defines them; the WGSL struct must match it.
pub use wgpu::util::DrawIndexedIndirectArgs;

/// The compute rasteriser's indirect arguments, written by the build pass each phase: the
/// raster dispatch of the list's objects without an alpha test
/// (`wgpu::util::DispatchIndirectArgs`, at byte 0), the resolve's full-screen draw
/// (`wgpu::util::DrawIndirectArgs`, at [`RasterArgs::RESOLVE_OFFSET`]) and the raster dispatch
/// of its masked objects (at [`RasterArgs::MASKED_OFFSET`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct RasterArgs {
    pub workgroups_x: u32,
    pub workgroups_y: u32,
    pub workgroups_z: u32,
    pub vertex_count: u32,
    pub instance_count: u32,
    pub first_vertex: u32,
    pub first_instance: u32,
    pub masked_workgroups_x: u32,
    pub masked_workgroups_y: u32,
    pub masked_workgroups_z: u32,
}

impl RasterArgs {
    /// Byte offset of the resolve's draw.
    pub const RESOLVE_OFFSET: u64 = std::mem::offset_of!(RasterArgs, vertex_count) as u64;
    /// Byte offset of the masked objects' dispatch.
    pub const MASKED_OFFSET: u64 = std::mem::offset_of!(RasterArgs, masked_workgroups_x) as u64;
}

const _: () = assert!(
    std::mem::size_of::<wgpu::util::DispatchIndirectArgs>() as u64 == RasterArgs::RESOLVE_OFFSET
        && RasterArgs::RESOLVE_OFFSET + std::mem::size_of::<wgpu::util::DrawIndirectArgs>() as u64
            == RasterArgs::MASKED_OFFSET
        && RasterArgs::MASKED_OFFSET + std::mem::size_of::<wgpu::util::DispatchIndirectArgs>() as u64
            == std::mem::size_of::<RasterArgs>() as u64
);

/// Size in bytes of one indirect draw command.
pub const DRAW_ARGS_SIZE: u64 = std::mem::size_of::<DrawIndexedIndirectArgs>() as u64;
