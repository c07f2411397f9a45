//! The mesh arena: every mesh of a scene packed into one vertex buffer and one index buffer,
//! so a draw selects its mesh with `first_index` / `base_vertex` alone and the main pass binds
//! vertex and index buffers once.

pub mod procedural;

use bytemuck::{Pod, Zeroable};
use glam::{Vec3, Vec4};

/// One vertex: 32 bytes, `@location(0..3)` in `shaders/draw.wgsl` (its vertex buffer layout
/// is `gpu_scene::vertex_layout`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable, PartialEq)]
pub struct Vertex {
    pub position: [f32; 3],
    pub normal: [f32; 3],
    pub uv: [f32; 2],
}

/// Geometry of one mesh before it is packed.
#[derive(Clone, Debug, Default)]
pub struct MeshData {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
}

impl MeshData {
    /// Reorders each triangle so it winds counter-clockwise around its vertex normals, which
    /// makes back-face culling correct whatever order a generator emitted.
    pub fn orient_to_normals(&mut self) {
        for tri in self.indices.chunks_exact_mut(3) {
            let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| self.vertices[i as usize]);
            let pa = Vec3::from(a.position);
            let face = (Vec3::from(b.position) - pa).cross(Vec3::from(c.position) - pa);
            let normal = Vec3::from(a.normal) + Vec3::from(b.normal) + Vec3::from(c.normal);
            if face.dot(normal) < 0.0 {
                tri.swap(1, 2);
            }
        }
    }

    /// Bounding sphere: centre of the axis-aligned box, radius to the farthest vertex.
    pub fn bounding_sphere(&self) -> Vec4 {
        let (min, max) = self.vertices.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), v| {
            let p = Vec3::from(v.position);
            (lo.min(p), hi.max(p))
        });
        if self.vertices.is_empty() {
            return Vec4::ZERO;
        }
        let center = (min + max) * 0.5;
        let radius = self.vertices.iter().map(|v| Vec3::from(v.position).distance(center)).fold(0.0, f32::max);
        center.extend(radius)
    }
}

/// Where one mesh lives in the arena.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshRange {
    pub name: String,
    pub first_index: u32,
    pub index_count: u32,
    pub base_vertex: i32,
    pub vertex_count: u32,
    /// Object-space bounding sphere: xyz centre, w radius.
    pub bounds: Vec4,
}

/// All meshes of a scene in one vertex and one index array.
#[derive(Clone, Debug, Default)]
pub struct MeshArena {
    pub vertices: Vec<Vertex>,
    pub indices: Vec<u32>,
    pub meshes: Vec<MeshRange>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MeshError {
    #[error("mesh \"{name}\" has no triangles")]
    Empty { name: String },
    #[error("mesh \"{name}\": index count {count} is not a multiple of 3")]
    NotTriangles { name: String, count: usize },
    #[error("mesh \"{name}\": index {index} is out of range for {vertices} vertices")]
    IndexOutOfRange { name: String, index: u32, vertices: usize },
    #[error("mesh \"{name}\" has a non-finite vertex")]
    NonFinite { name: String },
}

impl MeshArena {
    /// Packs a mesh and returns its id. Every index is checked here, once: this is the
    /// guarantee that lets the engine run without wgpu's per-draw indirect validation.
    pub fn add(&mut self, name: &str, data: MeshData) -> Result<u32, MeshError> {
        let name = name.to_string();
        if data.indices.is_empty() {
            return Err(MeshError::Empty { name });
        }
        if !data.indices.len().is_multiple_of(3) {
            return Err(MeshError::NotTriangles { name, count: data.indices.len() });
        }
        if let Some(&index) = data.indices.iter().find(|&&i| i as usize >= data.vertices.len()) {
            return Err(MeshError::IndexOutOfRange { name, index, vertices: data.vertices.len() });
        }
        let finite = |v: &Vertex| v.position.iter().chain(&v.normal).chain(&v.uv).all(|x| x.is_finite());
        if !data.vertices.iter().all(finite) {
            return Err(MeshError::NonFinite { name });
        }
        let range = MeshRange {
            name,
            first_index: self.indices.len() as u32,
            index_count: data.indices.len() as u32,
            base_vertex: self.vertices.len() as i32,
            vertex_count: data.vertices.len() as u32,
            bounds: data.bounding_sphere(),
        };
        self.vertices.extend_from_slice(&data.vertices);
        self.indices.extend_from_slice(&data.indices);
        self.meshes.push(range);
        Ok(self.meshes.len() as u32 - 1)
    }

    pub fn find(&self, name: &str) -> Option<u32> {
        self.meshes.iter().position(|m| m.name == name).map(|i| i as u32)
    }
}
