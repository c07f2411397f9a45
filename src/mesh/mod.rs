//! The mesh arena: every mesh of a scene packed into one vertex buffer and one index buffer,
//! so a draw selects its mesh with `first_index` / `base_vertex` alone and the main pass binds
//! vertex and index buffers once.
//!
//! Build a [`MeshData`] (or take one from [`procedural`]), optionally with coarser levels of
//! detail in a [`LodChain`], and pack it with [`MeshArena::add`] or [`MeshArena::add_lods`],
//! which check it once and return the mesh id objects refer to.
//!
//! The modules not shown here (level-of-detail chains and their error measure, the
//! simplifier, vertex-cache ordering, tangent generation, mesh sizes) are public for the
//! crate's own loaders, binary and tests, and carry no stability promise.

#[doc(hidden)]
pub mod distance;
#[doc(hidden)]
pub mod lod;
#[doc(hidden)]
pub mod optimize;
pub mod procedural;
#[doc(hidden)]
pub mod simplify;
#[doc(hidden)]
pub mod size;
#[doc(hidden)]
pub mod tangents;
#[doc(hidden)]
pub mod valence;

use bytemuck::{Pod, Zeroable};
use glam::{Vec3, Vec4};

/// One vertex as the CPU keeps it: 56 bytes. The GPU gets position, normal and `uv` in the
/// vertex buffer (`gpu_scene::types::GpuVertex`) and the rest in storage arrays beside it
/// (`gpu_scene::buffers`). Position, normal and both texture-coordinate sets are
/// floats; the tangent is stored as four signed-normalised shorts (xyz the unit tangent, w the
/// bitangent's sign ±1, all zero when the mesh has none: the shader then lights with the
/// vertex normal) and the vertex colour (glTF `COLOR_0`, linear RGBA) as four
/// unsigned-normalised shorts, white when the mesh has none.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct Vertex {
    /// Object-space position.
    pub position: [f32; 3],
    /// Object-space unit normal.
    pub normal: [f32; 3],
    /// `TEXCOORD_0`.
    pub uv: [f32; 2],
    /// `TEXCOORD_1` (0, 0 when the mesh has none).
    pub uv1: [f32; 2],
    /// Tangent and bitangent sign, signed-normalised ([`Vertex::tangent`] reads it,
    /// [`Vertex::set_tangent`] writes it); all zero without one.
    pub tangent: [i16; 4],
    /// Linear RGBA vertex colour, unsigned-normalised ([`Vertex::color`] reads it,
    /// [`Vertex::set_color`] writes it); white without one.
    pub color: [u16; 4],
}

impl Default for Vertex {
    fn default() -> Self {
        Vertex::new([0.0; 3], [0.0; 3], [0.0; 2])
    }
}

impl Vertex {
    /// A vertex with one texture-coordinate set, no tangent, white.
    pub fn new(position: [f32; 3], normal: [f32; 3], uv: [f32; 2]) -> Self {
        Vertex { position, normal, uv, uv1: [0.0; 2], tangent: [0; 4], color: [u16::MAX; 4] }
    }

    /// The tangent (xyz) and bitangent sign (w), as the shader reads it.
    pub fn tangent(&self) -> Vec4 {
        Vec4::from(self.tangent.map(|c| (c as f32 / i16::MAX as f32).max(-1.0)))
    }

    /// Stores `tangent` (xyz unit, w ±1) as signed-normalised shorts.
    pub fn set_tangent(&mut self, tangent: Vec4) {
        self.tangent = tangent.to_array().map(|c| (c.clamp(-1.0, 1.0) * i16::MAX as f32).round() as i16);
    }

    /// The vertex colour, linear RGBA in [0, 1].
    pub fn color(&self) -> Vec4 {
        Vec4::from(self.color.map(|c| c as f32 / u16::MAX as f32))
    }

    /// Stores a linear RGBA colour (clamped to [0, 1]) as unsigned-normalised shorts.
    pub fn set_color(&mut self, color: Vec4) {
        self.color = color.to_array().map(|c| (c.clamp(0.0, 1.0) * u16::MAX as f32).round() as u16);
    }

    /// Whether every float component is finite (the packed ones always are).
    pub fn is_finite(&self) -> bool {
        self.position.iter().chain(&self.normal).chain(&self.uv).chain(&self.uv1).all(|x| x.is_finite())
    }
}

/// Geometry of one mesh before it is packed: an indexed triangle list.
#[derive(Clone, Debug, Default)]
pub struct MeshData {
    /// The vertices the indices refer to.
    pub vertices: Vec<Vertex>,
    /// Three per triangle, counter-clockwise seen from the front (back faces are culled),
    /// each below `vertices.len()`.
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
        let sphere = center.extend(radius);
        if sphere.is_finite() {
            return sphere;
        }
        // Near f32's range the sum of the corners, or a squared distance, overflows: the same
        // sphere in f64, narrowed (not finite only when the sphere itself is out of range).
        let center = (min.as_dvec3() + max.as_dvec3()) * 0.5;
        let radius =
            self.vertices.iter().map(|v| Vec3::from(v.position).as_dvec3().distance(center)).fold(0.0, f64::max);
        center.as_vec3().extend(radius as f32)
    }
}

/// One level of detail of a mesh: where its triangles live in the arena, and how far (in
/// object-space units) its surface may lie from the full mesh's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LodRange {
    /// First index of the level in [`MeshArena::indices`].
    pub first_index: u32,
    /// Indices of the level: three per triangle.
    pub index_count: u32,
    /// Where the level's vertices start in [`MeshArena::vertices`]; its indices count from
    /// here.
    pub base_vertex: i32,
    /// Vertices of the level.
    pub vertex_count: u32,
    /// Object-space geometric error against level 0 (0 for level 0 itself); never smaller than
    /// the previous level's.
    pub error: f32,
}

/// Where one mesh lives in the arena.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshRange {
    /// The name it was added under ([`MeshArena::find`] looks it up).
    pub name: String,
    /// Level 0 (the full mesh): the same as `lods[0]`.
    pub first_index: u32,
    /// Level 0's index count.
    pub index_count: u32,
    /// Level 0's base vertex.
    pub base_vertex: i32,
    /// Level 0's vertex count.
    pub vertex_count: u32,
    /// Object-space bounding sphere of level 0: xyz centre, w radius. Coarser levels are
    /// culled with it too.
    pub bounds: Vec4,
    /// Level 0 first, then ever coarser levels; at most [`MAX_LODS`].
    pub lods: Vec<LodRange>,
    /// Whether a vertex of level 0 has a colour other than white (the vertex shader reads the
    /// colours of such meshes only).
    pub has_colors: bool,
}

/// Most levels of detail one mesh has (level 0 included).
pub const MAX_LODS: usize = crate::tunables::LOD_LEVELS as usize;

/// A mesh's levels of detail before packing: level 0 first, each with its object-space error.
#[derive(Clone, Debug, Default)]
pub struct LodChain {
    /// Each level's mesh and its object-space error against level 0: between 1 and
    /// [`MAX_LODS`] levels, level 0's error 0, errors never decreasing (checked by
    /// [`MeshArena::add_lods`]).
    pub levels: Vec<(MeshData, f32)>,
}

impl LodChain {
    /// A chain of one level: the mesh itself.
    pub fn single(data: MeshData) -> Self {
        Self { levels: vec![(data, 0.0)] }
    }
}

/// All meshes of a scene in one vertex and one index array. Add meshes only through
/// [`MeshArena::add`] and [`MeshArena::add_lods`]: they check what the GPU relies on.
#[derive(Clone, Debug, Default)]
pub struct MeshArena {
    /// Every level of every mesh's vertices, one after another.
    pub vertices: Vec<Vertex>,
    /// Every level of every mesh's indices, each relative to its level's `base_vertex`.
    pub indices: Vec<u32>,
    /// Where each mesh lives, by mesh id.
    pub meshes: Vec<MeshRange>,
}

/// `"name"` for a message: names come from scene and glTF files, so they are escaped and long
/// ones cut ([`crate::text::display_name`]).
fn quoted(name: &str) -> String {
    format!("\"{}\"", crate::text::display_name(name))
}

/// The largest bounding radius of a mesh, and of a placed object: the culling tests and level
/// selection compare squared distances in 32-bit floats, which overflow past about 1.8e19.
pub const MAX_MESH_RADIUS: f32 = 1.0e18;
/// The smallest bounding radius of a placed object that draws: below it, squared sizes
/// underflow 32-bit floats (about 1.2e-38) and the tests see zero.
pub const MIN_OBJECT_RADIUS: f32 = 1.0e-15;

/// Why [`MeshArena::add`] or [`MeshArena::add_lods`] refused a mesh. `name` is the name it
/// was added under (escaped and shortened in the message).
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum MeshError {
    /// The mesh is larger than [`MAX_MESH_RADIUS`] and its levels of detail measured infinite errors.
    #[error(
        "mesh {} has a bounding radius of {radius:e} units, beyond the {MAX_MESH_RADIUS:e} where squared distances \
         overflow 32-bit floats (culling and levels of detail compare squares): scale it down",
        quoted(.name)
    )]
    TooLarge {
        /// The mesh.
        name: String,
        /// Its bounding radius.
        radius: f32,
    },
    /// A level has no indices.
    #[error("mesh {} has no triangles", quoted(.name))]
    Empty {
        /// The mesh.
        name: String,
    },
    /// A level's index count is not a multiple of 3.
    #[error("mesh {}: index count {count} is not a multiple of 3", quoted(.name))]
    NotTriangles {
        /// The mesh.
        name: String,
        /// Its index count.
        count: usize,
    },
    /// An index refers past a level's vertices.
    #[error("mesh {}: index {index} is out of range for {vertices} vertices", quoted(.name))]
    IndexOutOfRange {
        /// The mesh.
        name: String,
        /// The first index out of range.
        index: u32,
        /// The level's vertex count.
        vertices: usize,
    },
    /// A vertex has a NaN or infinite position, normal or texture coordinate.
    #[error("mesh {} has a non-finite vertex", quoted(.name))]
    NonFinite {
        /// The mesh.
        name: String,
    },
    /// Level 0's bounding sphere does not fit in `f32`.
    #[error("mesh {}: its bounding sphere (radius {radius}) is beyond 32-bit floats", quoted(.name))]
    NonFiniteBounds {
        /// The mesh.
        name: String,
        /// The sphere's radius as computed (infinite or NaN).
        radius: f32,
    },
    /// The chain has no levels or more than [`MAX_LODS`].
    #[error("mesh {} has {levels} levels of detail; between 1 and {max} are allowed", quoted(.name))]
    LodCount {
        /// The mesh.
        name: String,
        /// Levels the chain has.
        levels: usize,
        /// The most allowed ([`MAX_LODS`]).
        max: usize,
    },
    /// A level's error is not finite, is below the previous level's, or is not 0 at level 0.
    #[error(
        "mesh {}: level of detail {level} has error {error}, below the previous level's or not finite",
        quoted(.name)
    )]
    LodError {
        /// The mesh.
        name: String,
        /// The level at fault.
        level: usize,
        /// Its error.
        error: f32,
    },
}

impl MeshArena {
    /// Packs a mesh with a single level of detail and returns its id.
    pub fn add(&mut self, name: &str, data: MeshData) -> Result<u32, MeshError> {
        self.add_lods(name, LodChain::single(data))
    }

    /// Packs every level of a mesh and returns its id. Every index is checked here, once:
    /// this is the guarantee that lets the engine run without wgpu's per-draw indirect
    /// validation. Level 0's error must be 0 and errors must not decrease. Each level is
    /// packed as `optimize::for_drawing` leaves it: equal vertices merged, triangles in
    /// vertex-cache order.
    pub fn add_lods(&mut self, name: &str, chain: LodChain) -> Result<u32, MeshError> {
        let name = name.to_string();
        if chain.levels.is_empty() || chain.levels.len() > MAX_LODS {
            return Err(MeshError::LodCount { name, levels: chain.levels.len(), max: MAX_LODS });
        }
        let mut previous = 0.0;
        for (level, (data, error)) in chain.levels.iter().enumerate() {
            Self::check(&name, data)?;
            if !error.is_finite() || *error < previous || (level == 0 && *error != 0.0) {
                // A mesh too large for 32-bit squares measures infinite levels: say why.
                let size = chain.levels[0].0.bounding_sphere();
                if !error.is_finite() && size.w.is_finite() && size.w > MAX_MESH_RADIUS {
                    return Err(MeshError::TooLarge { name, radius: size.w });
                }
                return Err(MeshError::LodError { name, level, error: *error });
            }
            previous = *error;
        }
        let bounds = chain.levels[0].0.bounding_sphere();
        if !bounds.is_finite() {
            return Err(MeshError::NonFiniteBounds { name, radius: bounds.w });
        }
        let mut lods = Vec::with_capacity(chain.levels.len());
        for (data, error) in chain.levels {
            let data = optimize::for_drawing(data);
            lods.push(LodRange {
                first_index: self.indices.len() as u32,
                index_count: data.indices.len() as u32,
                base_vertex: self.vertices.len() as i32,
                vertex_count: data.vertices.len() as u32,
                error,
            });
            self.vertices.extend_from_slice(&data.vertices);
            self.indices.extend_from_slice(&data.indices);
        }
        let base = lods[0];
        let level0 = &self.vertices[base.base_vertex as usize..][..base.vertex_count as usize];
        let has_colors = level0.iter().any(|v| v.color != [u16::MAX; 4]);
        self.meshes.push(MeshRange {
            name,
            first_index: base.first_index,
            index_count: base.index_count,
            base_vertex: base.base_vertex,
            vertex_count: base.vertex_count,
            bounds,
            lods,
            has_colors,
        });
        Ok(self.meshes.len() as u32 - 1)
    }

    fn check(name: &str, data: &MeshData) -> Result<(), MeshError> {
        let name = || name.to_string();
        if data.indices.is_empty() {
            return Err(MeshError::Empty { name: name() });
        }
        if !data.indices.len().is_multiple_of(3) {
            return Err(MeshError::NotTriangles { name: name(), count: data.indices.len() });
        }
        if let Some(&index) = data.indices.iter().find(|&&i| i as usize >= data.vertices.len()) {
            return Err(MeshError::IndexOutOfRange { name: name(), index, vertices: data.vertices.len() });
        }
        if !data.vertices.iter().all(Vertex::is_finite) {
            return Err(MeshError::NonFinite { name: name() });
        }
        Ok(())
    }

    /// A packed mesh's levels copied back out of the arena, as [`MeshArena::add_lods`] took
    /// them: to move a mesh from one arena into another.
    pub fn chain(&self, mesh: u32) -> LodChain {
        let levels = self.meshes[mesh as usize]
            .lods
            .iter()
            .map(|lod| {
                let vertices = lod.base_vertex as usize..lod.base_vertex as usize + lod.vertex_count as usize;
                let indices = lod.first_index as usize..(lod.first_index + lod.index_count) as usize;
                let data =
                    MeshData { vertices: self.vertices[vertices].to_vec(), indices: self.indices[indices].to_vec() };
                (data, lod.error)
            })
            .collect();
        LodChain { levels }
    }

    /// The id of the first mesh added under `name`.
    pub fn find(&self, name: &str) -> Option<u32> {
        self.meshes.iter().position(|m| m.name == name).map(|i| i as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::MeshError;

    #[test]
    fn mesh_names_in_messages_are_escaped_and_cut() {
        let hostile = MeshError::Empty { name: "\u{1b}[2Jx\0".into() };
        assert_eq!(hostile.to_string(), "mesh \"\\u{1b}[2Jx\\0\" has no triangles");
        let long = MeshError::NonFinite { name: "n".repeat(1000) };
        assert!(long.to_string().ends_with("… (1000 characters)\" has a non-finite vertex"), "{long}");
    }

    /// A mesh too large for 32-bit squared distances, whose levels measure infinite errors, is
    /// refused by its size, named.
    #[test]
    fn a_mesh_too_large_for_squares_is_refused_by_its_size() {
        let corner = |x: f32, y: f32| super::Vertex::new([x, y, 0.0], [0.0, 0.0, 1.0], [0.0; 2]);
        let huge = super::MeshData {
            vertices: vec![corner(-1e25, -1e25), corner(1e25, -1e25), corner(0.0, 1e25)],
            indices: vec![0, 1, 2],
        };
        let chain = super::LodChain { levels: vec![(huge.clone(), 0.0), (huge, f32::INFINITY)] };
        let error = super::MeshArena::default().add_lods("planet", chain).expect_err("too large");
        assert!(matches!(error, MeshError::TooLarge { .. }), "{error}");
        assert!(error.to_string().contains("mesh \"planet\" has a bounding radius of 1"), "{error}");
    }
}
