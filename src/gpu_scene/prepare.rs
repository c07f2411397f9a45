//! CPU → GPU order: objects sorted by batch, batches sorted by variant.

use glam::{Mat4, Vec3, Vec4};

use super::textures::{self, TexturePlacement};
use super::types::{GpuBatch, GpuMaterial, GpuObject, GpuTextureRef};
use crate::scene::{Object, Scene, UvTransform, Variant};
use crate::tunables::{
    DRAWN_TEXTURED_BIT, MAIN_SET_1, READS_TANGENT, READS_UV1, SOFT_BIT, VARIANT_COUNT, VERTEX_COLORS_BIT,
};

/// Where one variant's batches and objects live.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VariantRange {
    pub first_batch: u32,
    pub batch_count: u32,
    pub first_object: u32,
    pub object_count: u32,
}

/// A scene in the order the GPU sees it.
#[derive(Clone, Debug)]
pub struct PreparedScene {
    /// Sorted by (variant, mesh); an object's index here is its id everywhere.
    pub objects: Vec<GpuObject>,
    /// One batch per (variant, mesh, level of detail), sorted by variant; the levels of one
    /// (variant, mesh) are consecutive, level 0 first.
    pub batches: Vec<GpuBatch>,
    pub materials: Vec<GpuMaterial>,
    pub variants: [VariantRange; VARIANT_COUNT as usize],
    /// Slots of `instances[]` the batch slices take (every level of a (variant, mesh) has room
    /// for all its objects); the identity range of per-object draws starts here.
    pub identity_base: u32,
    /// Each texture's (slot, layer).
    pub textures: TexturePlacement,
    /// The deferred variants' triangle ids (`shaders/shared/visibility.wgsl`): per batch, the
    /// first id of its slice, its first object, its triangles and its level; `None` where the
    /// scene has more triangles in all its batches' slices than a 31-bit id can name (the top
    /// bit is `DRAWN_TEXTURED_BIT`).
    pub triangle_table: Option<Vec<[u32; 4]>>,
}

/// Sorts objects into batches of (variant, mesh, level) and fills the GPU tables.
pub fn prepare(scene: &Scene) -> PreparedScene {
    let variant_of = |material: u32| scene.materials[material as usize].variant as u32;
    let order = gpu_order(scene);

    // Runs of objects sharing (variant, mesh), in sorted order: (variant, mesh, first, count).
    let mut groups: Vec<(u32, u32, u32, u32)> = Vec::new();
    for (id, &source) in order.iter().enumerate() {
        let object = &scene.objects[source as usize];
        let key = (variant_of(object.material), object.mesh);
        match groups.last_mut() {
            Some(group) if (group.0, group.1) == key => group.3 += 1,
            _ => groups.push((key.0, key.1, id as u32, 1)),
        }
    }

    let mut objects = Vec::with_capacity(order.len());
    let mut batches: Vec<GpuBatch> = Vec::new();
    let mut variants = [VariantRange::default(); VARIANT_COUNT as usize];
    let mut next_instance = 0u32;
    // Triangle ids are numbered batch after batch, each object of a slice taking its level's
    // triangles: what every batch's slice could draw in one frame.
    let mut triangle_table = Vec::new();
    let mut next_triangle = 0u64;
    for &(variant, mesh_id, first_object, count) in &groups {
        let range = &mut variants[variant as usize];
        if range.batch_count == 0 {
            range.first_batch = batches.len() as u32;
            range.first_object = first_object;
        }
        let mesh = &scene.meshes.meshes[mesh_id as usize];
        let level_count = mesh.lods.len() as u32;
        range.batch_count += level_count;
        range.object_count += count;
        let first_batch = batches.len() as u32;
        for (level, lod) in mesh.lods.iter().enumerate() {
            batches.push(GpuBatch {
                first_index: lod.first_index,
                index_count: lod.index_count,
                base_vertex: lod.base_vertex,
                first_instance: next_instance,
                capacity: count,
                variant,
                variant_first_batch: range.first_batch,
                variant_first_object: range.first_object,
                level: level as u32,
                level_count,
                relative_error: relative_error(lod.error, mesh.bounds.w),
            });
            let triangles = lod.index_count / 3;
            triangle_table.push([next_triangle as u32, first_object, triangles, level as u32]);
            next_triangle += u64::from(count) * u64::from(triangles);
            next_instance += count;
        }
        for &source in &order[first_object as usize..(first_object + count) as usize] {
            objects.push(gpu_object(scene, &scene.objects[source as usize], first_batch));
        }
    }
    // Empty variants still get a consistent (empty) range after the previous ones.
    let mut next = VariantRange::default();
    for range in variants.iter_mut() {
        if range.batch_count == 0 {
            range.first_batch = next.first_batch;
            range.first_object = next.first_object;
        }
        next.first_batch = range.first_batch + range.batch_count;
        next.first_object = range.first_object + range.object_count;
    }

    let textures = textures::place(scene);
    // A material's texture as the shader names it, or GpuTextureRef::NONE.
    let texture = |index: Option<u32>, places: &[(u32, u32)], role: &crate::scene::TextureLayers, uv: UvTransform| {
        let found = index.and_then(|i| Some((places.get(i as usize)?, role.layers.get(i as usize)?)));
        found.map_or(GpuTextureRef::NONE, |(&(slot, layer), t)| {
            let (matrix, offset) = uv.matrix();
            GpuTextureRef {
                transform: Vec4::from(matrix.to_cols_array()),
                offset,
                layer: layer as i32,
                size_class: slot,
                wrap: textures::wrap_bits(t.wrap, t.tiles_log2),
                uv_set: uv.set,
                ..GpuTextureRef::NONE
            }
        })
    };
    let materials = scene
        .materials
        .iter()
        .map(|m| GpuMaterial {
            base_color: m.base_color,
            base_color_texture: texture(
                m.base_color_layer,
                &textures.base_color,
                &scene.base_color_textures,
                m.base_color_uv,
            ),
            normal_texture: GpuTextureRef {
                scale: m.normal_scale,
                ..texture(m.normal_layer, &textures.normal, &scene.normal_textures, m.normal_uv)
            },
            metallic_roughness_texture: texture(
                m.metallic_roughness_layer,
                &textures.normal,
                &scene.normal_textures,
                m.metallic_roughness_uv,
            ),
            occlusion_texture: GpuTextureRef {
                scale: m.occlusion_strength,
                ..texture(m.occlusion_layer, &textures.normal, &scene.normal_textures, m.occlusion_uv)
            },
            emissive_texture: texture(
                m.emissive_layer,
                &textures.base_color,
                &scene.base_color_textures,
                m.emissive_uv,
            ),
            variant: m.variant as u32,
            alpha_cutoff: if m.variant == Variant::Masked { m.alpha_cutoff } else { 0.0 },
            vertex_inputs: vertex_inputs(m),
            unlit: m.unlit as u32,
            emissive: m.emissive.extend(0.0),
            metallic: m.metallic,
            roughness: m.roughness,
            double_sided: (m.variant == Variant::Blend && m.double_sided) as u32,
            _pad: 0,
        })
        .collect();
    // Below the textured bit, and no textured id all ones (`NO_IDS`).
    let triangle_table = (next_triangle < u64::from(DRAWN_TEXTURED_BIT - 1)).then_some(triangle_table);
    PreparedScene { objects, batches, materials, variants, identity_base: next_instance, textures, triangle_table }
}

/// The optional vertex inputs a material's textures read (`GpuMaterial::vertex_inputs`).
fn vertex_inputs(material: &crate::scene::Material) -> u32 {
    let normal_map = material.normal_layer.is_some();
    let set1 = material.textures().any(|(_, uv)| uv.set == 1);
    (if normal_map { READS_TANGENT } else { 0 })
        | (if set1 { READS_UV1 } else { 0 })
        | (if set1 && material.main_uv_set() == 1 { MAIN_SET_1 } else { 0 })
}

/// The scene's object indices in GPU order: sorted (stably) by (variant, mesh). Entry `i`
/// is the scene object whose id on the GPU is `i`.
pub fn gpu_order(scene: &Scene) -> Vec<u32> {
    let variant_of = |material: u32| scene.materials[material as usize].variant as u32;
    let mut order: Vec<u32> = (0..scene.objects.len() as u32).collect();
    order.sort_by_key(|&i| {
        let o = &scene.objects[i as usize];
        (variant_of(o.material), o.mesh)
    });
    order
}

/// A level's error as a fraction of the mesh's bounding radius, so the cull pass scales it by
/// the object's world radius (which already carries the object's scale). A mesh of radius 0
/// has nothing to simplify: its coarser levels are never picked.
fn relative_error(error: f32, radius: f32) -> f32 {
    if error == 0.0 {
        0.0
    } else if radius > 0.0 {
        error / radius
    } else {
        f32::MAX
    }
}

fn gpu_object(scene: &Scene, object: &Object, batch: u32) -> GpuObject {
    let soft = soft_rasterisable(&scene.materials[object.material as usize]);
    gpu_object_in(&scene.meshes, scene.animated, object, batch, soft)
}

const _: () = assert!(Variant::DoubleSided as u32 == crate::tunables::VARIANT_DOUBLE_SIDED);
const _: () = assert!(Variant::Masked as u32 == crate::tunables::VARIANT_MASKED);
const _: () = assert!(Variant::Opaque as u32 == crate::tunables::VARIANT_OPAQUE);

/// Whether the compute rasteriser can draw objects of `material` (`tunables::SOFT_BIT`): what
/// `shaders/raster.wgsl` covers and `shaders/shade.wgsl` shades, an opaque, masked or
/// double-sided surface whose textures, if any, read the first coordinate set (the compute
/// path interpolates one set).
pub fn soft_rasterisable(material: &crate::scene::Material) -> bool {
    matches!(material.variant, Variant::Opaque | Variant::Masked | Variant::DoubleSided)
        && material.main_uv_set() == 0
        && !material.textures_on_other_set()
}

/// One object's GPU record in the batch whose level 0 is `batch`: what [`prepare`] writes, and
/// what a live scene rewrites in place when an object moves. `soft`: its material is
/// [`soft_rasterisable`] (a mesh with vertex colours makes it not).
pub fn gpu_object_in(
    meshes: &crate::mesh::MeshArena,
    animated: bool,
    object: &Object,
    batch: u32,
    soft: bool,
) -> GpuObject {
    let mesh = &meshes.meshes[object.mesh as usize];
    let model = Mat4::from_scale_rotation_translation(Vec3::splat(object.scale), object.rotation, object.translation);
    let (orbit, spin) = if animated { (object.orbit_class as u32, object.spin_class as u32) } else { (0, 0) };
    let colors = if mesh.has_colors { VERTEX_COLORS_BIT } else { 0 };
    let soft = if soft && !mesh.has_colors { SOFT_BIT } else { 0 };
    GpuObject {
        model,
        bounds: mesh.bounds.truncate().extend(mesh.bounds.w * object.scale.abs()),
        mesh: object.mesh,
        material: object.material,
        batch,
        animation: orbit | (spin << 16) | colors | soft,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The batch whose slice holds triangle id `id`, as `named_triangle` in
    /// shaders/shared/visibility.wgsl finds it: the last whose first id is not above it.
    fn batch_of(table: &[[u32; 4]], id: u32) -> usize {
        table.partition_point(|row| row[0] <= id) - 1
    }

    /// Every triangle of every object at every level has its own id, and the table names the
    /// object, level and triangle back from it.
    #[test]
    fn triangle_ids_name_each_object_level_and_triangle_once() {
        let scene = crate::scene::file::default_scene_with_objects(300);
        let prepared = prepare(&scene);
        let table = prepared.triangle_table.as_ref().expect("a small scene's triangles fit 31 bits");
        assert_eq!(table.len(), prepared.batches.len());
        let mut next = 0u64;
        for (row, batch) in table.iter().zip(&prepared.batches) {
            assert_eq!(u64::from(row[0]), next, "ids are numbered batch after batch");
            assert_eq!((row[2], row[3]), (batch.index_count / 3, batch.level));
            next += u64::from(batch.capacity) * u64::from(row[2]);
        }
        for (id, object) in prepared.objects.iter().enumerate() {
            let id = id as u32;
            let levels = prepared.batches[object.batch as usize].level_count;
            for level in 0..levels {
                let batch = (object.batch + level) as usize;
                let row = table[batch];
                // `first_triangle_id`, then the last triangle of the level.
                let first = row[0] + (id - row[1]) * row[2];
                for triangle in [0, row[2] - 1] {
                    let named = first + triangle;
                    let found = table[batch_of(table, named)];
                    let within = named - found[0];
                    assert_eq!(found[1] + within / found[2], id, "object {id} level {level}");
                    assert_eq!((found[3], within % found[2]), (level, triangle), "object {id} level {level}");
                }
            }
        }
    }
}
