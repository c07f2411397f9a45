//! What a scene may hold on this adapter: the object count and every buffer a scene upload
//! makes, checked against the device's limits (and the scene's references checked) before
//! anything is allocated, with errors that name the limit.

use std::mem::size_of;

use super::types::{GpuBatch, GpuMaterial, GpuObject, GpuVertex};
use crate::scene::budget::{DeviceBudget, OPTIONAL_VERTEX_BYTES as OPTIONAL_INPUT_BYTES};
use crate::scene::Scene;
use crate::text;
use crate::tunables::{LEVEL_SHIFT, LOD_LEVELS, VARIANT_COUNT};

/// Bytes per object in the largest per-object storage binding (`objects[]`).
pub const OBJECT_BYTES: u64 = std::mem::size_of::<GpuObject>() as u64;

/// The largest object count this adapter's limits allow, and the limit that decides it.
pub fn object_limit(limits: &wgpu::Limits) -> (u32, &'static str, u64) {
    let binding = limits.max_storage_buffer_binding_size as u64;
    let buffer = limits.max_buffer_size;
    // objects[] is the largest per-object array (instances[] holds at most (2 × LOD_LEVELS + 1)
    // words, four blend-sort words and the cull order's two, 76 bytes; cull_records[] 48 and
    // 48 per cell; draws[] two commands, 40). Ids must also stay below LEVEL_SHIFT's bit.
    const _: () = assert!((2 * LOD_LEVELS as u64 + 1 + 4 + 2) * 4 <= OBJECT_BYTES);
    let ids = 1u64 << LEVEL_SHIFT;
    if binding <= buffer {
        ((binding / OBJECT_BYTES).min(ids) as u32, "max_storage_buffer_binding_size", binding)
    } else {
        ((buffer / OBJECT_BYTES).min(ids) as u32, "max_buffer_size", buffer)
    }
}

pub fn max_objects(limits: &wgpu::Limits) -> u32 {
    object_limit(limits).0
}

/// The adapter's limits as a scene's budget needs them (plain numbers: the scene layer knows
/// no GPU types).
pub fn device_budget(limits: &wgpu::Limits) -> DeviceBudget {
    let (max_objects, limit, value) = object_limit(limits);
    DeviceBudget {
        max_objects: max_objects as u64,
        objects_limit: format!(
            "{limit} of {} bytes ({OBJECT_BYTES} bytes per object: at most {} objects fit)",
            text::count(value),
            text::count(max_objects as u64)
        ),
        max_buffer_bytes: limits.max_buffer_size,
        max_binding_bytes: limits.max_storage_buffer_binding_size as u64,
        max_texture_layers: limits.max_texture_array_layers as u64,
        max_texture_size: limits.max_texture_dimension_2d as u64,
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum UploadError {
    #[error(
        "{requested} objects need {bytes} bytes of object data, over this adapter's {limit} of {limit_value} bytes \
         ({per_object} bytes per object): at most {max_objects} objects fit"
    )]
    TooManyObjects {
        requested: u64,
        bytes: u64,
        limit: &'static str,
        limit_value: u64,
        per_object: u64,
        max_objects: u32,
    },
    #[error("the scene has no meshes")]
    NoMeshes,
    #[error("the scene has no materials")]
    NoMaterials,
    #[error("object {object} refers to {what} {index}, but the scene has {count}")]
    BadReference { object: usize, what: &'static str, index: u32, count: usize },
    #[error("texture slot {slot}: layer {layer} has {got} bytes, expected {expected} ({size}×{size} RGBA8)")]
    BadTexture { slot: &'static str, layer: usize, got: usize, expected: usize, size: u32 },
    #[error("{slot} texture {layer} is not {expected:?}, the encoding of its role")]
    WrongEncoding { slot: &'static str, layer: usize, expected: crate::scene::TextureEncoding },
    #[error("texture slot {slot}: {layers} layers exceed the adapter's max_texture_array_layers ({limit})")]
    TooManyLayers { slot: &'static str, layers: usize, limit: u32 },
    #[error(
        "the {buffer} buffer needs {} bytes, over this adapter's {limit} of {} bytes",
        text::count(*bytes),
        text::count(*limit_value)
    )]
    BufferTooLarge { buffer: &'static str, bytes: u64, limit: &'static str, limit_value: u64 },
    #[error(
        "{slot} texture of {size}×{size}: not a size class (a power of two from 64 to 2048) within the adapter's \
         max_texture_dimension_2d ({limit})"
    )]
    TextureTooLarge { slot: &'static str, size: u32, limit: u32 },
    #[error("the main pass's pipelines for the new scene: {0}")]
    MainPipelines(String),
}

/// Checks an object count against the adapter's limits; callers that generate scenes check
/// before generating.
pub fn check_object_count(requested: u64, limits: &wgpu::Limits) -> Result<(), UploadError> {
    let (max_objects, limit, limit_value) = object_limit(limits);
    if requested > max_objects as u64 {
        return Err(UploadError::TooManyObjects {
            requested,
            bytes: requested * OBJECT_BYTES,
            limit,
            limit_value,
            per_object: OBJECT_BYTES,
            max_objects,
        });
    }
    Ok(())
}

/// Checks a scene against the adapter's limits and its own references before anything is
/// allocated.
pub fn check_scene(scene: &Scene, limits: &wgpu::Limits) -> Result<(), UploadError> {
    check_object_count(scene.objects.len() as u64, limits)?;
    // An empty scene (`[scene] empty = true`) draws the background: it needs neither.
    if scene.meshes.meshes.is_empty() && !scene.objects.is_empty() {
        return Err(UploadError::NoMeshes);
    }
    if scene.materials.is_empty() && !scene.objects.is_empty() {
        return Err(UploadError::NoMaterials);
    }
    for (i, o) in scene.objects.iter().enumerate() {
        if o.mesh as usize >= scene.meshes.meshes.len() {
            return Err(UploadError::BadReference {
                object: i,
                what: "mesh",
                index: o.mesh,
                count: scene.meshes.meshes.len(),
            });
        }
        if o.material as usize >= scene.materials.len() {
            return Err(UploadError::BadReference {
                object: i,
                what: "material",
                index: o.material,
                count: scene.materials.len(),
            });
        }
    }
    check_buffer_sizes(scene, limits)?;
    super::textures::check_textures(scene, limits)
}

/// Every buffer [`SceneBuffers::upload`] makes from the scene's size against the adapter's
/// limits, so that no `create_buffer_init` can fail (wgpu panics on a buffer over
/// `max_buffer_size`). The object arrays are covered by [`check_object_count`].
fn check_buffer_sizes(scene: &Scene, limits: &wgpu::Limits) -> Result<(), UploadError> {
    let (buffer_limit, binding) = (limits.max_buffer_size, limits.max_storage_buffer_binding_size as u64);
    let batches: u64 = scene.meshes.meshes.iter().map(|m| m.lods.len() as u64).sum::<u64>() * VARIANT_COUNT as u64;
    let sizes = [
        ("vertices", scene.meshes.vertices.len() as u64 * size_of::<GpuVertex>() as u64, false),
        ("vertex tangents", scene.meshes.vertices.len() as u64 * OPTIONAL_INPUT_BYTES, true),
        ("vertex colours", scene.meshes.vertices.len() as u64 * OPTIONAL_INPUT_BYTES, true),
        ("vertex uv1", scene.meshes.vertices.len() as u64 * OPTIONAL_INPUT_BYTES, true),
        ("indices", scene.meshes.indices.len() as u64 * 4, false),
        ("batches", batches * size_of::<GpuBatch>() as u64, true),
        ("materials", scene.materials.len() as u64 * size_of::<GpuMaterial>() as u64, true),
    ];
    for (buffer, bytes, storage) in sizes {
        let (limit, limit_value) = if storage && binding < buffer_limit {
            ("max_storage_buffer_binding_size", binding)
        } else {
            ("max_buffer_size", buffer_limit)
        };
        if bytes > limit_value {
            return Err(UploadError::BufferTooLarge { buffer, bytes, limit, limit_value });
        }
    }
    Ok(())
}
