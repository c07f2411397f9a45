//! The order the GPU wants a mesh in, without changing what it draws.
//!
//! On the H200 the main pass pays per vertex-shader invocation (docs/BENCHMARKS.md § "Vertex-shader invocations"),
//! and instanced draws of small meshes pay exactly that, not a fixed cost per instance
//! (`examples/pull_probe.rs`). An invocation is
//! saved wherever the post-transform cache finds a vertex it has already shaded, which needs
//! (1) one vertex where a generator or an exporter wrote several equal ones (a cylinder's side
//! and cap corners: 120 vertices where 56 differ) and (2) triangles ordered so that those
//! that share vertices come close together (meshoptimizer's vertex-cache order). Both keep
//! every triangle and every vertex attribute as it is: the vertex shader sees the same inputs,
//! so the image can differ only where triangles of one object tie in depth and now draw in
//! another order.

#[cfg(not(target_arch = "wasm32"))]
use super::valence::Hubs;
use super::MeshData;

/// `mesh` with equal vertices merged and its triangles in vertex-cache order. Vertices are
/// equal when every attribute is bit for bit the same (+0.0 and -0.0 stay apart); the kept
/// ones keep their order, unused vertices included, so the result has at most as many.
///
/// Applied to its own result it changes nothing (a chain copied out of one arena into another
/// packs the same): welding keeps the order of the vertices it keeps, and the triangles are put
/// in one canonical order (each rotated to start at its smallest index, winding kept, then
/// sorted) before meshoptimizer orders them, so its input depends only on the set of
/// triangles. A mesh whose hubs would make that order take too long
/// ([`Hubs::too_crowded`]) keeps the canonical order: it draws the same, with more
/// vertex-shader invocations.
pub fn for_drawing(mesh: MeshData) -> MeshData {
    let MeshData { vertices, mut indices } = weld(mesh);
    let (triangles, _) = indices.as_chunks_mut::<3>();
    for t in triangles.iter_mut() {
        let smallest = (0..3).min_by_key(|&k| t[k]).expect("three corners");
        t.rotate_left(smallest);
    }
    triangles.sort_unstable();
    // No meshoptimizer in the browser build (wasm32): the canonical order stays, which draws
    // the same with more vertex-shader invocations.
    #[cfg(not(target_arch = "wasm32"))]
    if !Hubs::by_index(&indices, vertices.len()).too_crowded() {
        meshopt::optimize_vertex_cache_in_place(&mut indices, vertices.len());
    }
    MeshData { vertices, indices }
}

/// `mesh` with vertices equal in every attribute (bit for bit) merged into the first of them;
/// the kept vertices keep their order, the triangles theirs.
///
/// In place, with two `u32` per vertex on the side (a sort order, then the remap), so that
/// packing a large mesh needs little more host memory than the mesh itself (the load budget,
/// `tunables::HOST_BYTES_PER_VERTEX`, counts three copies of each vertex).
pub fn weld(mut mesh: MeshData) -> MeshData {
    let count = mesh.vertices.len();
    let vertices = &mesh.vertices;
    let bytes = |i: u32| -> &[u8] { bytemuck::bytes_of(&vertices[i as usize]) };
    // Equal vertices side by side, each run in index order: its first is the one kept.
    let mut order: Vec<u32> = (0..count as u32).collect();
    order.sort_unstable_by(|&a, &b| bytes(a).cmp(bytes(b)).then(a.cmp(&b)));
    let mut remap = vec![0u32; count];
    for run in order.chunk_by(|&a, &b| bytes(a) == bytes(b)) {
        run.iter().for_each(|&i| remap[i as usize] = run[0]);
    }
    drop(order);
    // Compact: a kept vertex moves down to its new index; a merged one takes its first's, which
    // comes earlier and so already has its new index.
    let mut kept = 0usize;
    for i in 0..count {
        let first = remap[i] as usize;
        if first == i {
            mesh.vertices[kept] = mesh.vertices[i];
            remap[i] = kept as u32;
            kept += 1;
        } else {
            remap[i] = remap[first];
        }
    }
    mesh.vertices.truncate(kept);
    mesh.indices.iter_mut().for_each(|i| *i = remap[*i as usize]);
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::{procedural, Vertex};

    /// The triangles a mesh draws, each as its three vertices rotated to start at the
    /// smallest, sorted: what must not change.
    fn triangles(mesh: &MeshData) -> Vec<[[u32; 14]; 3]> {
        let mut list: Vec<[[u32; 14]; 3]> = mesh
            .indices
            .chunks_exact(3)
            .map(|t| {
                let corners: [[u32; 14]; 3] = [t[0], t[1], t[2]].map(|i| bytemuck::cast(mesh.vertices[i as usize]));
                let start = (0..3).min_by_key(|&k| corners[k]).expect("three corners");
                [corners[start], corners[(start + 1) % 3], corners[(start + 2) % 3]]
            })
            .collect();
        list.sort();
        list
    }

    #[test]
    fn same_triangles_fewer_vertices() {
        for (mesh, welded_vertices) in [
            (procedural::cylinder(12), 56),
            (procedural::cone(12), 62),
            (procedural::cube(), 24),
            (procedural::uv_sphere(16, 8), 153),
            (procedural::rock(7), 240),
        ] {
            let optimized = for_drawing(mesh.clone());
            assert_eq!(optimized.vertices.len(), welded_vertices);
            assert_eq!(triangles(&optimized), triangles(&mesh), "every triangle kept, winding included");
        }
    }

    #[test]
    fn unused_vertices_stay_and_order_is_kept() {
        let mut mesh = procedural::cube();
        let unused = Vertex::new([9.0; 3], [0.0, 1.0, 0.0], [0.0; 2]);
        mesh.vertices.insert(0, unused);
        mesh.indices.iter_mut().for_each(|i| *i += 1);
        let optimized = for_drawing(mesh.clone());
        assert_eq!(optimized.vertices, mesh.vertices, "nothing to weld in a cube: vertices untouched");
        assert_eq!(triangles(&optimized), triangles(&mesh));
    }

    #[test]
    fn a_second_pass_changes_nothing() {
        for mesh in [procedural::torus(16, 8), procedural::cylinder(12), procedural::rock(3), procedural::icosphere(2)]
        {
            let once = for_drawing(mesh);
            let twice = for_drawing(once.clone());
            assert_eq!((&twice.vertices, &twice.indices), (&once.vertices, &once.indices));
        }
    }

    #[test]
    fn signed_zero_is_not_welded() {
        let a = Vertex::new([0.0; 3], [0.0, 1.0, 0.0], [0.0; 2]);
        let b = Vertex::new([-0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0; 2]);
        let c = Vertex::new([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0; 2]);
        let mesh = MeshData { vertices: vec![a, b, c, a], indices: vec![0, 2, 3, 1, 2, 3] };
        let optimized = for_drawing(mesh);
        assert_eq!(optimized.vertices, vec![a, b, c]);
    }
}
