//! The scene's GPU buffers and bind groups, created once per scene upload and shared by every
//! view (`gpu_scene::view` has what each view owns). Nothing here is re-created per frame: per
//! frame only the counters are cleared.

use std::mem::size_of;

use super::cells::CullOrder;
use super::layout::{Layouts, HIZ, SCENE};
use super::prepare::PreparedScene;
use super::textures::{EnvironmentMaps, SceneTextures};
use super::types::{GpuBatch, GpuCullRecord, GpuMaterial, GpuObject, GpuVertex, RasterArgs, DRAW_ARGS_SIZE};
use crate::gpu::counted;
use crate::scene::Scene;
use crate::tunables::{COUNTER_SLOTS, LEVEL_SHIFT, LOD_LEVELS, OCCLUDER_CAPACITY, SOFT_MAX_OBJECTS, VARIANT_COUNT};

use crate::scene::budget::{OPTIONAL_VERTEX_BYTES as OPTIONAL_INPUT_BYTES, VERTEX_BYTES};

const _: () =
    assert!(size_of::<GpuVertex>() as u64 == VERTEX_BYTES && size_of::<[i16; 4]>() as u64 == OPTIONAL_INPUT_BYTES);

/// The mesh arena's vertices as the GPU keeps them: the vertex stream and, beside it, one
/// array per optional input.
struct SplitVertices {
    stream: Vec<GpuVertex>,
    tangents: Vec<[i16; 4]>,
    colors: Vec<[u16; 4]>,
    uv1: Vec<[f32; 2]>,
}

impl SplitVertices {
    fn new(vertices: &[crate::mesh::Vertex]) -> Self {
        SplitVertices {
            stream: vertices.iter().map(|v| GpuVertex { position: v.position, normal: v.normal, uv: v.uv }).collect(),
            tangents: vertices.iter().map(|v| v.tangent).collect(),
            colors: vertices.iter().map(|v| v.color).collect(),
            uv1: vertices.iter().map(|v| v.uv1).collect(),
        }
    }
}

/// Every buffer of an uploaded scene. Field docs say who writes and who reads.
pub struct SceneBuffers {
    /// All meshes' vertices (`GpuVertex`). Written at upload; read by the main pass.
    pub vertices: wgpu::Buffer,
    /// The optional vertex inputs beside them (tangents, colours, `TEXCOORD_1`), one array
    /// each. Written at upload; read by the main pass's vertex shader where an object uses them.
    pub vertex_inputs: [wgpu::Buffer; 3],
    /// All meshes' indices. Written at upload; read by the main pass.
    pub indices: wgpu::Buffer,
    /// `GpuObject` per object, sorted by batch. Written at upload and by the scatter pass;
    /// read by the main, shadow and raster passes.
    pub objects: wgpu::Buffer,
    /// `GpuCullRecord` per object, the words of `objects` the cull reads, in the cull's order
    /// (`cull_order`), then one per cell of that order (`cells`). Written at upload and by
    /// the scatter pass; read by cull and the blend sort.
    pub cull_records: wgpu::Buffer,
    /// `GpuBatch` per batch. Written at upload; read by cull and build.
    pub batches: wgpu::Buffer,
    /// `GpuMaterial` per material. Written at upload; read by main.
    pub materials: wgpu::Buffer,
    /// Object ids, tagged with their level above `LEVEL_SHIFT`: `[0, identity_base)` batch
    /// slices (every level of a (variant, mesh) has room for all its objects) written by cull
    /// each frame, then one identity range of `N` entries per level written at upload
    /// (per-object draws use `first_instance = identity_base + level × N + id`), then `N`
    /// entries from `soft_base`: the objects the cull pass listed for the compute rasteriser,
    /// then from `blend_key_base` two words per blended object (the room rounded up to a power
    /// of two): the blend sort's keys (`passes::blend`), then from `blend_pull_base` four
    /// words per blended object (at least one): its order for the pulled blended pass
    /// (`FrameUniforms::blend_pulled`), then from `occluder_key_base` two words per occluder
    /// (the room rounded up to a power of two): the occluder sort's keys (`passes::build`),
    /// then from `triangle_table_base` the triangle ids'
    /// table, four words per batch (`PreparedScene::triangle_table`), then from
    /// `cull_order_base` the cull's order, `N` object ids, and from `cull_slot_base` each
    /// object's slot in it (`cells::CullOrder`). Read by main, raster, its resolve, cull and the
    /// blend sort.
    pub instances: wgpu::Buffer,
    /// Visible objects per batch. Cleared each frame, incremented by cull, read by build.
    pub batch_counts: wgpu::Buffer,
    /// Indirect draws: written by build (or cull in per-object mode), read by main as INDIRECT;
    /// then from `blend_draw_base` one per blended object, written by the blend sort, and one
    /// more: the pulled blended pass's (`SceneBuffers::pulled_blend_offset`); then from
    /// `occluder_draw_base` the occluders' draws, nearest first, written by the occluder sort.
    pub draws: wgpu::Buffer,
    /// The compute rasteriser's dispatch and its resolve's draw (`RasterArgs`): written by
    /// build each phase, read by raster and the resolve as INDIRECT.
    pub raster_args: wgpu::Buffer,
    /// One draw count per variant, then the counters (`tunables::COUNTER_*`). Cleared each
    /// frame (the draw counts again before the second phase), incremented by cull and build,
    /// read by main as the count buffer and copied out for stats.
    pub draw_counts: wgpu::Buffer,
    /// Group `scene`: objects, instances, materials and the optional vertex inputs.
    pub scene_bind_group: wgpu::BindGroup,
    /// The `textures` group: every texture slot, the environment's maps and the samplers
    /// (`gpu_scene::textures`).
    pub texture_bind_group: wgpu::BindGroup,
    /// Bytes of every texture slot with its mips, placeholders included, and of the
    /// environment's maps.
    pub texture_bytes: u64,
    /// Group `hiz` bound to a 1×1 placeholder: what the cull and build pipelines bind where
    /// they do not test against a depth pyramid.
    pub hiz_placeholder: wgpu::BindGroup,
    pub object_count: u32,
    pub batch_count: u32,
    /// First slot of the identity range of `instances[]`.
    pub identity_base: u32,
    /// Capacity of `draws[]` in commands before the blend sort's: max(objects, batches).
    pub draw_capacity: u32,
    /// Objects of the blend variant (spare slots of a live scene included).
    pub blend_capacity: u32,
    /// First word of the blend sort's keys in `instances[]`.
    pub blend_key_base: u32,
    /// First slot of the blend sort's draws in `draws[]` (= `draw_capacity`).
    pub blend_draw_base: u32,
    /// First word of the pulled blended pass's objects in `instances[]`.
    pub blend_pull_base: u32,
    /// Room of a view's occluder list: the scene's opaque objects, at most
    /// `tunables::OCCLUDER_CAPACITY`.
    pub occluder_capacity: u32,
    /// First word of the occluder sort's keys in `instances[]`.
    pub occluder_key_base: u32,
    /// First slot of the occluders' sorted draws in `draws[]`, after the blend sort's.
    pub occluder_draw_base: u32,
    /// First slot of the compute rasteriser's list in `instances[]` (after the identity ranges).
    pub soft_base: u32,
    /// Where the list's part for masked objects starts, from `soft_base`
    /// ([`soft_list_parts`]).
    pub soft_masked_base: u32,
    /// The room of the list's part for masked objects.
    pub soft_masked_capacity: u32,
    /// Whether the vertex and index arenas can be bound as storage (`soft_usage`), so the
    /// compute rasteriser and the pulled blended pass (`pulls_blend`) can read them.
    pub soft_buffers: bool,
    /// First word of the triangle ids' table in `instances[]` (`PreparedScene::triangle_table`).
    pub triangle_table_base: u32,
    /// Whether the scene's triangles fit 32-bit ids (`PreparedScene::triangle_table`).
    pub triangle_ids: bool,
    /// The order the cull walks the objects in, cell by cell (`cells`).
    pub cull_order: CullOrder,
    /// First word of the cull order (slot → object id) in `instances[]`.
    pub cull_order_base: u32,
    /// First word of the objects' cull slots (object id → slot) in `instances[]`.
    pub cull_slot_base: u32,
}

impl SceneBuffers {
    /// Whether deferred shading (`passes::deferred`) can draw this scene: its arenas can be
    /// bound as storage, and every triangle its batches could draw has a 32-bit id.
    pub fn defers(&self) -> bool {
        self.soft_buffers && self.triangle_ids
    }
}

/// A storage buffer holding `contents`, or one zeroed element of `element_size` bytes when
/// empty: bindings must hold at least one element of the shader's array, even for an empty
/// scene.
fn storage_buffer(
    device: &wgpu::Device,
    label: &str,
    contents: &[u8],
    element_size: usize,
    extra: wgpu::BufferUsages,
) -> wgpu::Buffer {
    let padded;
    let contents = if contents.is_empty() {
        padded = vec![0u8; element_size];
        &padded[..]
    } else {
        contents
    };
    counted::buffer_init(
        device,
        &wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | extra,
        },
    )
}

impl SceneBuffers {
    /// Uploads a prepared scene, binding `environment`'s maps with its textures; call
    /// [`check_scene`] first.
    pub fn upload(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layouts: &Layouts,
        scene: &Scene,
        prepared: &PreparedScene,
        environment: &EnvironmentMaps,
    ) -> Self {
        profile_function!();
        let limits = &device.limits();
        let object_count = prepared.objects.len() as u32;
        let batch_count = prepared.batches.len() as u32;
        let draw_capacity = object_count.max(batch_count).max(1);
        let blend_capacity = prepared.variants[crate::scene::Variant::Blend as usize].object_count;
        let occluder_capacity =
            prepared.variants[crate::scene::Variant::Opaque as usize].object_count.min(OCCLUDER_CAPACITY);
        let mut split = SplitVertices::new(&scene.meshes.vertices);
        // An empty scene's arenas hold one degenerate triangle, so that every binding and the
        // prewarm's draw of three indices stay valid.
        let padding_indices = [0u32; 3];
        let indices_data: &[u32] =
            if scene.meshes.indices.is_empty() { &padding_indices } else { &scene.meshes.indices };
        if split.stream.is_empty() {
            split = SplitVertices::new(&[crate::mesh::Vertex::new([0.0; 3], [0.0, 0.0, 1.0], [0.0; 2])]);
        }
        let (vertex_usage, index_usage) = (soft_usage(&split.stream, limits), soft_usage(indices_data, limits));
        let vertices = counted::buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("vertices"),
                contents: bytemuck::cast_slice(&split.stream),
                usage: wgpu::BufferUsages::VERTEX | vertex_usage,
            },
        );
        let optional = |label, contents: &[u8]| {
            storage_buffer(device, label, contents, OPTIONAL_INPUT_BYTES as usize, wgpu::BufferUsages::empty())
        };
        let vertex_inputs = [
            optional("vertex tangents", bytemuck::cast_slice(&split.tangents)),
            optional("vertex colours", bytemuck::cast_slice(&split.colors)),
            optional("vertex uv1", bytemuck::cast_slice(&split.uv1)),
        ];
        drop(split);
        let indices = counted::buffer_init(
            device,
            &wgpu::util::BufferInitDescriptor {
                label: Some("indices"),
                contents: bytemuck::cast_slice(indices_data),
                usage: wgpu::BufferUsages::INDEX | index_usage,
            },
        );
        let objects = storage_buffer(
            device,
            "objects",
            bytemuck::cast_slice(&prepared.objects),
            size_of::<GpuObject>(),
            wgpu::BufferUsages::empty(),
        );
        let (cull_order, records) = CullOrder::new(&prepared.objects);
        let cull_records = storage_buffer(
            device,
            "cull records",
            bytemuck::cast_slice(&records),
            size_of::<GpuCullRecord>(),
            wgpu::BufferUsages::empty(),
        );
        drop(records);
        let batches = storage_buffer(
            device,
            "batches",
            bytemuck::cast_slice::<GpuBatch, u8>(&prepared.batches),
            size_of::<GpuBatch>(),
            wgpu::BufferUsages::empty(),
        );
        let materials = storage_buffer(
            device,
            "materials",
            bytemuck::cast_slice::<GpuMaterial, u8>(&prepared.materials),
            size_of::<GpuMaterial>(),
            wgpu::BufferUsages::empty(),
        );
        let identity_base = prepared.identity_base;
        // The identity ranges: level L's entry of object i is i tagged with L.
        let identity = (0..LOD_LEVELS).flat_map(|level| (0..object_count).map(move |id| id | level << LEVEL_SHIFT));
        // Then the compute rasteriser's list, at most one entry per object.
        let soft_base = identity_base + LOD_LEVELS * object_count;
        let (soft_masked_base, soft_masked_capacity) =
            soft_list_parts(object_count, prepared.variants[crate::scene::Variant::Masked as usize].object_count);
        // Then the blend sort's keys, padded to a power of two for its bitonic network.
        let blend_key_base = soft_base + object_count;
        let blend_key_words = if blend_capacity == 0 { 0 } else { 2 * blend_capacity.next_power_of_two() };
        // Then the pulled blended pass's objects; all zero (no index to draw) until sorted.
        let blend_pull_base = blend_key_base + blend_key_words;
        let blend_pull_words = 4 * blend_capacity.max(1);
        // Then the occluder sort's keys, likewise.
        let occluder_key_base = blend_pull_base + blend_pull_words;
        let occluder_key_words = if occluder_capacity == 0 { 0 } else { 2 * occluder_capacity.next_power_of_two() };
        // Then the triangle ids' table, where the scene has one.
        let triangle_table_base = occluder_key_base + occluder_key_words;
        let triangle_table = prepared.triangle_table.as_deref().unwrap_or_default();
        // Then the cull order, both ways (`cells`).
        let cull_order_base = triangle_table_base + 4 * triangle_table.len() as u32;
        let cull_slot_base = cull_order_base + object_count;
        let instance_data: Vec<u32> = std::iter::repeat_n(0, identity_base as usize)
            .chain(identity)
            .chain(std::iter::repeat_n(
                0,
                (object_count + blend_key_words + blend_pull_words + occluder_key_words) as usize,
            ))
            .chain(triangle_table.iter().flatten().copied())
            .chain(cull_order.ids.iter().copied())
            .chain(cull_order.slots.iter().copied())
            .collect();
        let instances =
            storage_buffer(device, "instances", bytemuck::cast_slice(&instance_data), 4, wgpu::BufferUsages::COPY_SRC);
        let batch_counts = counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("batch counts"),
                size: (batch_count.max(1) as u64) * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            },
        );
        let draws = counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("draws"),
                size: (draw_capacity + blend_capacity + 1 + occluder_capacity) as u64 * DRAW_ARGS_SIZE,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::INDIRECT
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            },
        );
        let raster_args = counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("raster args"),
                size: size_of::<RasterArgs>() as u64,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            },
        );
        let draw_counts = counted::buffer(
            device,
            &wgpu::BufferDescriptor {
                label: Some("draw counts"),
                size: (VARIANT_COUNT + COUNTER_SLOTS) as u64 * 4,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::INDIRECT
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            },
        );
        let textures = SceneTextures::upload(device, queue, scene, &prepared.textures);

        let soft_buffers = !(vertex_usage | index_usage).is_empty() && vertex_usage == index_usage;
        // Arenas too large to bind as storage: the scene group binds a placeholder in their
        // place, and the blended pass draws one slot per object (`pulls_blend`).
        let arena_placeholders = ["vertex words placeholder", "indices placeholder"]
            .map(|label| storage_buffer(device, label, &[], 4 * 8, wgpu::BufferUsages::empty()));
        let scene_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(SCENE.label),
            layout: &layouts.scene,
            entries: &[
                SCENE.buffer("objects", &objects),
                SCENE.buffer("instances", &instances),
                SCENE.buffer("materials", &materials),
                SCENE.buffer("vertex_tangents", &vertex_inputs[0]),
                SCENE.buffer("vertex_colors", &vertex_inputs[1]),
                SCENE.buffer("vertex_uv1", &vertex_inputs[2]),
                SCENE.buffer("vertex_words", if soft_buffers { &vertices } else { &arena_placeholders[0] }),
                SCENE.buffer("indices", if soft_buffers { &indices } else { &arena_placeholders[1] }),
            ],
        });
        let texture_bind_group = textures.bind_group(device, layouts, environment);
        let hiz_placeholder = hiz_placeholder(device, layouts);
        Self {
            vertices,
            indices,
            objects,
            cull_records,
            batches,
            materials,
            instances,
            batch_counts,
            draws,
            raster_args,
            draw_counts,
            scene_bind_group,
            vertex_inputs,
            texture_bind_group,
            texture_bytes: textures.bytes + environment.bytes,
            hiz_placeholder,
            object_count,
            batch_count,
            identity_base,
            draw_capacity,
            blend_capacity,
            blend_key_base,
            blend_draw_base: draw_capacity,
            blend_pull_base,
            occluder_capacity,
            occluder_key_base,
            occluder_draw_base: draw_capacity + blend_capacity + 1,
            soft_base,
            soft_masked_base,
            soft_masked_capacity,
            soft_buffers,
            triangle_table_base,
            triangle_ids: prepared.triangle_table.is_some(),
            cull_order,
            cull_order_base,
            cull_slot_base,
        }
    }

    /// Whether the blended pass is one pulled draw (`FrameUniforms::blend_pulled`): where the
    /// frame has no draw count (`counted` false, as on WebGPU) one draw per blended object
    /// would be a draw call per object, so it draws them all in one instanced draw that reads
    /// their vertices from the arenas, which must then be bound as storage.
    pub fn pulls_blend(&self, counted: bool) -> bool {
        !counted && self.soft_buffers
    }

    /// Byte offset in `draws` of the pulled blended pass's `DrawIndirectArgs`.
    pub fn pulled_blend_offset(&self) -> u64 {
        (self.blend_draw_base + self.blend_capacity) as u64 * DRAW_ARGS_SIZE
    }
}

/// STORAGE where the compute rasteriser may bind the vertex or index arena (`data`) as one
/// storage binding: within the adapter's `max_storage_buffer_binding_size`. A scene whose arena
/// is larger is drawn by the hardware alone.
fn soft_usage<T>(data: &[T], limits: &wgpu::Limits) -> wgpu::BufferUsages {
    let bytes = std::mem::size_of_val(data) as u64;
    if bytes > 0 && bytes <= limits.max_storage_buffer_binding_size as u64 {
        wgpu::BufferUsages::STORAGE
    } else {
        wgpu::BufferUsages::empty()
    }
}

/// The compute rasteriser's list in two parts: the objects without an alpha test from slot 0,
/// those of masked materials (`masked` of `objects`) from the returned slot, each part drawn by
/// a raster pipeline of its own (`passes::raster`). An object is listed at most once a frame,
/// so where the scene's objects fit the payload's numbering (`SOFT_MAX_OBJECTS`) each part has
/// room for every object of its kind; past that the room is shared in proportion, rounded up
/// for the masked part, so that a scene with masked objects always has room for some (the cull
/// tells a list in parts by that room), and the cull gives what does not fit to the hardware.
/// Returns the masked part's first slot (the other part's room) and its room.
pub fn soft_list_parts(objects: u32, masked: u32) -> (u32, u32) {
    let room = objects.min(SOFT_MAX_OBJECTS);
    let masked_room = match objects {
        0 => 0,
        _ => (u64::from(room) * u64::from(masked.min(objects))).div_ceil(u64::from(objects)) as u32,
    };
    (room - masked_room, masked_room)
}

/// A 1×1 sampled R32Float texture, bound where a layout wants a depth-pyramid level that is
/// never read.
pub fn r32_placeholder(device: &wgpu::Device, label: &str) -> wgpu::TextureView {
    placeholder(device, label, wgpu::TextureFormat::R32Float)
}

/// A 1×1 sampled texture of `format`, bound where a bind group's table names a texture the
/// pass does not read.
pub fn placeholder(device: &wgpu::Device, label: &str, format: wgpu::TextureFormat) -> wgpu::TextureView {
    single_texel(device, label, format, wgpu::TextureUsages::TEXTURE_BINDING)
}

/// A view of a new 1×1 texture of `format` with `usage`: placeholders, and targets that
/// pipelines are prewarmed into.
pub fn single_texel(
    device: &wgpu::Device,
    label: &str,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: 1, height: 1, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

/// The `hiz` group with a 1×1 R32Float texture (never read: phases that bind it do not test
/// occlusion).
fn hiz_placeholder(device: &wgpu::Device, layouts: &Layouts) -> wgpu::BindGroup {
    let view = r32_placeholder(device, "hiz placeholder");
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("hiz placeholder"),
        layout: &layouts.hiz,
        entries: &[HIZ.entry("pyramid", wgpu::BindingResource::TextureView(&view))],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_soft_list_parts_hold_every_object_of_their_kind_where_the_numbering_allows() {
        assert_eq!(soft_list_parts(0, 0), (0, 0));
        assert_eq!(soft_list_parts(1_000, 0), (1_000, 0));
        assert_eq!(soft_list_parts(1_000, 100), (900, 100));
        assert_eq!(soft_list_parts(1_000, 1_000), (0, 1_000));
        // Past the numbering, in proportion, and never more than it holds.
        let objects = 10 * SOFT_MAX_OBJECTS;
        let (base, room) = soft_list_parts(objects, objects / 10);
        assert_eq!(room, SOFT_MAX_OBJECTS.div_ceil(10));
        assert_eq!(base + room, SOFT_MAX_OBJECTS);
        assert_eq!(soft_list_parts(u32::MAX, u32::MAX), (0, SOFT_MAX_OBJECTS));
        // A few masked objects among many still get room: the cull tells parts by it.
        assert_eq!(soft_list_parts(objects, 1), (SOFT_MAX_OBJECTS - 1, 1));
        assert_eq!(soft_list_parts(objects, 0), (SOFT_MAX_OBJECTS, 0));
    }
}
