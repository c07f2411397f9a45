//! The only layer that knows both the CPU scene and the GPU: the GPU struct types, the scene
//! in GPU order ([`mod@prepare`]), its buffers and bind groups ([`SceneBuffers`]), the universal
//! layout (bind group tables shared by Rust and WGSL) and shader composition.

pub mod buffers;
pub mod cells;
pub mod layout;
pub mod limits;
pub mod prepare;
pub mod shader;
pub mod textures;
pub mod types;
pub mod upload;
pub mod view;

pub use buffers::SceneBuffers;
pub use layout::Layouts;
pub use limits::{check_object_count, check_scene, device_budget, max_objects, UploadError};
pub use prepare::{prepare, PreparedScene, VariantRange};
pub use view::ViewBuffers;

use types::GpuVertex;

/// Position, normal, `TEXCOORD_0`: the fields of [`GpuVertex`] in order.
const VERTEX_ATTRIBUTES: [wgpu::VertexAttribute; 3] =
    wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3, 2 => Float32x2];

/// The vertex buffer layout of [`GpuVertex`].
pub fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<GpuVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &VERTEX_ATTRIBUTES,
    }
}
