//! The only layer that knows both the CPU scene and the GPU: the GPU struct types, the scene
//! in GPU order ([`mod@prepare`]), its buffers and bind groups ([`SceneBuffers`]), the universal
//! layout (bind group tables shared by Rust and WGSL) and shader composition.

pub mod buffers;
pub mod layout;
pub mod prepare;
pub mod shader;
pub mod textures;
pub mod types;

pub use buffers::{check_object_count, check_scene, device_budget, max_objects, SceneBuffers, UploadError};
pub use layout::Layouts;
pub use prepare::{prepare, PreparedScene, VariantRange};

use crate::mesh::Vertex;

/// Position, normal, `TEXCOORD_0`, `TEXCOORD_1`, tangent (signed-normalised shorts) and colour
/// (unsigned-normalised shorts): the fields of [`Vertex`] in order.
const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 6] = wgpu::vertex_attr_array![
    0 => Float32x3, 1 => Float32x3, 2 => Float32x2, 3 => Float32x2, 4 => Snorm16x4, 5 => Unorm16x4
];

// The offsets `vertex_attr_array!` computes are the struct's.
const _: () = assert!(
    std::mem::offset_of!(Vertex, uv1) == 32
        && std::mem::offset_of!(Vertex, tangent) == 40
        && std::mem::offset_of!(Vertex, color) == 48
        && std::mem::size_of::<Vertex>() == 56
);

/// The vertex buffer layout of the mesh arena's [`Vertex`].
pub fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<Vertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &VERTEX_ATTRIBUTES,
    }
}
