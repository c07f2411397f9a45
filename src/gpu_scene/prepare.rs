//! CPU → GPU order: objects sorted by batch, batches sorted by variant.

use glam::{Mat4, Vec3};

use super::types::{GpuBatch, GpuMaterial, GpuObject};
use crate::scene::{Object, Scene, Variant};
use crate::tunables::VARIANT_COUNT;

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
    pub batches: Vec<GpuBatch>,
    pub materials: Vec<GpuMaterial>,
    pub variants: [VariantRange; VARIANT_COUNT as usize],
}

/// Sorts objects into batches of (variant, mesh) and fills the GPU tables.
pub fn prepare(scene: &Scene) -> PreparedScene {
    let variant_of = |material: u32| scene.materials[material as usize].variant as u32;
    let mut order: Vec<u32> = (0..scene.objects.len() as u32).collect();
    order.sort_by_key(|&i| {
        let o = &scene.objects[i as usize];
        (variant_of(o.material), o.mesh)
    });

    let mut objects = Vec::with_capacity(order.len());
    let mut batches: Vec<GpuBatch> = Vec::new();
    let mut variants = [VariantRange::default(); VARIANT_COUNT as usize];
    let mut current: Option<(u32, u32)> = None;
    for (id, &source) in order.iter().enumerate() {
        let object = &scene.objects[source as usize];
        let variant = variant_of(object.material);
        if current != Some((variant, object.mesh)) {
            let range = &mut variants[variant as usize];
            if range.batch_count == 0 {
                range.first_batch = batches.len() as u32;
                range.first_object = id as u32;
            }
            range.batch_count += 1;
            let mesh = &scene.meshes.meshes[object.mesh as usize];
            batches.push(GpuBatch {
                first_index: mesh.first_index,
                index_count: mesh.index_count,
                base_vertex: mesh.base_vertex,
                first_instance: id as u32,
                capacity: 0,
                variant,
                variant_first_batch: range.first_batch,
                variant_first_object: range.first_object,
            });
            current = Some((variant, object.mesh));
        }
        variants[variant as usize].object_count += 1;
        let batch = batches.len() as u32 - 1;
        batches[batch as usize].capacity += 1;
        objects.push(gpu_object(scene, object, batch));
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

    let materials = scene
        .materials
        .iter()
        .map(|m| GpuMaterial {
            base_color: m.base_color,
            base_color_layer: m.base_color_layer.map_or(-1, |l| l as i32),
            normal_layer: m.normal_layer.map_or(-1, |l| l as i32),
            variant: m.variant as u32,
            alpha_cutoff: if m.variant == Variant::Masked { m.alpha_cutoff } else { 0.0 },
        })
        .collect();
    PreparedScene { objects, batches, materials, variants }
}

fn gpu_object(scene: &Scene, object: &Object, batch: u32) -> GpuObject {
    let mesh = &scene.meshes.meshes[object.mesh as usize];
    let model = Mat4::from_scale_rotation_translation(Vec3::splat(object.scale), object.rotation, object.translation);
    let (orbit, spin) = if scene.animated { (object.orbit_class as u32, object.spin_class as u32) } else { (0, 0) };
    GpuObject {
        model,
        bounds: mesh.bounds.truncate().extend(mesh.bounds.w * object.scale.abs()),
        mesh: object.mesh,
        material: object.material,
        batch,
        animation: orbit | (spin << 16),
    }
}
