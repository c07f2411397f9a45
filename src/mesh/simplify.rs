//! Levels of detail for meshes that cannot tessellate themselves (imported ones), made by
//! meshoptimizer's edge-collapse simplifier through the `meshopt` crate.
//!
//! Every level is simplified from level 0, not from the level before it, so errors do not
//! accumulate. Each level aims at half the previous level's triangles, within
//! [`crate::tunables::LOD_SIMPLIFY_MAX_ERROR`] of the mesh's extent, and the chain rules of
//! [`super::lod`] apply (at least [`crate::tunables::LOD_MIN_TRIANGLE_SAVING`] saved per level,
//! at most [`super::MAX_LODS`] levels).
//!
//! * The simplifier sees normals and UVs as well as positions
//!   (`simplify_with_attributes_and_locks`), so it prefers collapses that keep the shading and
//!   the texture mapping. Vertices that share a position but differ in normal or UV (hard
//!   edges, UV seams) are kept as seams: meshoptimizer only collapses along a seam, never
//!   across it, unless told to be `Permissive`, which we are not.
//! * A level's error is the larger of meshoptimizer's estimate (relative; multiplied by
//!   `simplify_scale` into object space) and the measured surface distance to level 0
//!   ([`super::distance`]). Meshoptimizer's estimate includes the attribute terms, so it may
//!   exceed the geometric distance; the measured distance guards the other way.
//! * Each coarser level keeps only the vertices it uses (`optimize_vertex_fetch`), so the arena
//!   holds no dead vertices. Level 0 is the imported mesh untouched.
//!
//! On wasm32 (the browser build, `web/`) there is no meshoptimizer: a mesh keeps its single
//! level and draws at full detail. The browser draws only generated scenes, whose procedural
//! meshes tessellate their own levels (`procedural::Shape::lods`).

use std::mem::size_of;

#[cfg(not(target_arch = "wasm32"))]
use meshopt::{SimplifyOptions, VertexDataAdapter};

use super::lod::with_measured_errors;
use super::valence::Hubs;
use super::{LodChain, MeshData, Vertex};

/// Weights of the attributes after the position, in [`Vertex`] order: normal xyz, uv. Normals
/// at 0.5 (meshoptimizer's own suggestion for unit normals); UVs lower, since a texture
/// sliding a little on a distant object shows less than its shading changing.
#[cfg(not(target_arch = "wasm32"))]
const ATTRIBUTE_WEIGHTS: [f32; 5] = [0.5, 0.5, 0.5, 0.25, 0.25];

/// `f32`s before the first attribute (the normal) in a [`Vertex`].
const ATTRIBUTE_OFFSET: usize = 3;

// The simplifier reads positions at offset 0 and the attributes as five consecutive floats
// after them (the rest of the vertex, at the vertex stride, it does not read).
const _: () = assert!(
    std::mem::offset_of!(Vertex, position) == 0
        && std::mem::offset_of!(Vertex, normal) == ATTRIBUTE_OFFSET * 4
        && std::mem::offset_of!(Vertex, uv) == (ATTRIBUTE_OFFSET + 3) * 4
        && size_of::<Vertex>().is_multiple_of(4)
);

/// The levels of detail of `mesh`: itself, then simplified versions while they save enough.
/// A mesh the simplifier cannot take (no triangles, an index out of range, a non-finite
/// position) comes back as its single level for [`super::MeshArena::add_lods`] to report.
/// So does a mesh whose hubs would make simplifying it take too long
/// ([`Hubs::too_crowded`], counted by position as the simplifier counts them), with those
/// hubs for the caller to name.
pub fn lods(mesh: MeshData) -> (LodChain, Option<Hubs>) {
    if !simplifiable(&mesh) {
        return (LodChain::single(mesh), None);
    }
    let positions: Vec<[f32; 3]> = mesh.vertices.iter().map(|v| v.position).collect();
    let hubs = Hubs::by_position(&mesh.indices, &positions);
    drop(positions);
    if hubs.too_crowded() {
        return (LodChain::single(mesh), Some(hubs));
    }
    let (levels, estimates) = simplified_levels(&mesh);
    (with_measured_errors(std::iter::once(mesh).chain(levels).collect(), &estimates), None)
}

/// The coarser levels of `mesh` (level 0 not included) with meshoptimizer's error estimates in
/// object units, level 0's (zero) first.
#[cfg(not(target_arch = "wasm32"))]
fn simplified_levels(mesh: &MeshData) -> (Vec<MeshData>, Vec<f32>) {
    use super::{lod::saves_enough, MAX_LODS};
    use crate::tunables::LOD_SIMPLIFY_MAX_ERROR;

    let bytes: &[u8] = bytemuck::cast_slice(&mesh.vertices);
    let positions =
        VertexDataAdapter::new(bytes, size_of::<Vertex>(), 0).expect("a Vertex slice divides into Vertex strides");
    let scale = meshopt::simplify_scale(&positions);
    let floats: &[f32] = bytemuck::cast_slice(&mesh.vertices);
    let attributes = &floats[ATTRIBUTE_OFFSET..];
    let unlocked = vec![false; mesh.vertices.len()];

    let mut levels = Vec::new();
    let mut estimates = vec![0.0];
    let mut previous = mesh.indices.len() / 3;
    while levels.len() + 1 < MAX_LODS {
        let target_triangles = previous / 2;
        let mut relative_error = 0.0;
        let mut indices = meshopt::simplify_with_attributes_and_locks(
            &mesh.indices,
            &positions,
            attributes,
            &ATTRIBUTE_WEIGHTS,
            size_of::<Vertex>(),
            &unlocked,
            target_triangles * 3,
            LOD_SIMPLIFY_MAX_ERROR,
            SimplifyOptions::None,
            Some(&mut relative_error),
        );
        let triangles = indices.len() / 3;
        if triangles == 0 || !saves_enough(previous, triangles) {
            break;
        }
        let vertices = meshopt::optimize_vertex_fetch(&mut indices, &mesh.vertices);
        levels.push(MeshData { vertices, indices });
        estimates.push(relative_error * scale);
        previous = triangles;
    }
    (levels, estimates)
}

/// No simplifier in the browser build: no coarser level.
#[cfg(target_arch = "wasm32")]
fn simplified_levels(_mesh: &MeshData) -> (Vec<MeshData>, Vec<f32>) {
    (Vec::new(), vec![0.0])
}

/// What meshoptimizer needs to be safe and meaningful: whole triangles, indices in range (it
/// does not check them) and finite numbers.
fn simplifiable(mesh: &MeshData) -> bool {
    !mesh.indices.is_empty()
        && mesh.indices.len().is_multiple_of(3)
        && mesh.indices.iter().all(|&i| (i as usize) < mesh.vertices.len())
        && mesh.vertices.iter().all(Vertex::is_finite)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::lod::saves_enough;
    use crate::mesh::{procedural, MeshArena, Vertex};

    #[test]
    fn a_dense_sphere_simplifies_into_a_full_chain() {
        let sphere = procedural::uv_sphere(64, 32);
        let (chain, hubs) = lods(sphere.clone());
        assert_eq!(hubs, None);
        let counts = chain.triangle_counts();
        let errors = chain.errors();
        assert_eq!(chain.levels[0].0.vertices, sphere.vertices);
        assert_eq!(chain.levels[0].0.indices, sphere.indices);
        assert!(counts.len() >= 4, "{counts:?}");
        for k in 1..counts.len() {
            assert!(saves_enough(counts[k - 1], counts[k]), "{counts:?}");
            assert!(errors[k] >= errors[k - 1] && errors[k].is_finite(), "{errors:?}");
            assert!(errors[k] < sphere.bounding_sphere().w, "{errors:?}");
            let level = &chain.levels[k].0;
            let mut used = vec![false; level.vertices.len()];
            level.indices.iter().for_each(|&i| used[i as usize] = true);
            assert!(used.iter().all(|&u| u), "level {k} keeps unused vertices");
        }
        MeshArena::default().add_lods("sphere", chain).expect("the chain packs");
    }

    /// A 150,000-triangle fan: one level, its centre named, packed (unordered) in seconds.
    #[test]
    fn a_crowded_fan_keeps_one_level() {
        let n = 150_000u32;
        let mut vertices = vec![Vertex::new([0.0; 3], [0.0, 0.0, 1.0], [0.5; 2])];
        vertices.extend((0..n).map(|i| {
            let angle = i as f32 / n as f32 * std::f32::consts::TAU;
            Vertex::new([angle.cos(), angle.sin(), 0.0], [0.0, 0.0, 1.0], [0.5; 2])
        }));
        let indices = (0..n).flat_map(|i| [0, 1 + i, 1 + (i + 1) % n]).collect();
        let (chain, hubs) = lods(MeshData { vertices, indices });
        assert_eq!(chain.levels.len(), 1);
        let hubs = hubs.expect("the centre is named");
        assert_eq!((hubs.largest, hubs.vertex), (n, 0));
        let mut arena = MeshArena::default();
        arena.add_lods("fan", chain).expect("packs");
        assert_eq!(arena.indices.len(), 3 * n as usize);
    }

    #[test]
    fn what_cannot_simplify_stays_one_level() {
        // A cube: every collapse would move a corner by a large part of the extent.
        assert_eq!(lods(procedural::cube()).0.levels.len(), 1);
        let broken = MeshData { vertices: procedural::cube().vertices, indices: vec![0, 1, 99] };
        let (chain, _) = lods(broken.clone());
        assert_eq!(chain.levels.len(), 1);
        assert_eq!(chain.levels[0].0.indices, broken.indices);
        assert_eq!(lods(MeshData::default()).0.levels.len(), 1);
    }
}
