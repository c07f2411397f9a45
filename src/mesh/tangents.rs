//! Tangents for normal mapping: the direction of increasing `u` on the surface (xyz) and the
//! sign (w) that makes `cross(normal, tangent) × w` the bitangent, as glTF defines them.
//!
//! glTF images have their origin at the top left and `v` grows downwards, while normal maps
//! store +Y as "up" in the image, so the bitangent points towards *decreasing* `v`. With UVs
//! laid on the surface the usual way (u to the right, v down the image, seen from the front)
//! that gives w = +1; a mirrored mapping gives w = −1.
//!
//! Two generators, both writing that convention:
//! * [`fn@mikktspace`]: MikkTSpace (the `mikktspace` crate), which glTF asks for when a file has
//!   normal maps but no `TANGENT` attribute, so that maps baked against MikkTSpace tangents
//!   shade as their authoring tool showed them. It works per triangle corner; vertices whose
//!   corners get different tangents are split, then identical vertices are welded again.
//! * [`accumulate`]: per-vertex sums of each triangle's `dP/du` (area-weighted), made
//!   orthogonal to the normal. Cheap (one pass, no splits), for procedural meshes, whose UVs
//!   are smooth parametrisations where both agree, and for imported meshes without normal
//!   maps (a scene-file material may still give them one).
//!
//! Where a triangle's UVs have no area the tangent cannot be found; such vertices keep a zero
//! tangent and the shader lights them with the vertex normal.

use std::collections::HashMap;

use glam::{Vec2, Vec3, Vec4};

use super::{MeshData, Vertex};

/// `dP/du` and `dP/dv` of a triangle, or `None` where its UVs have no area.
fn uv_gradients(p: [Vec3; 3], uv: [Vec2; 3]) -> Option<(Vec3, Vec3)> {
    let (e1, e2) = (p[1] - p[0], p[2] - p[0]);
    let (d1, d2) = (uv[1] - uv[0], uv[2] - uv[0]);
    let det = d1.x * d2.y - d2.x * d1.y;
    if det.abs() <= f32::EPSILON * (d1.length_squared() + d2.length_squared()) || !det.is_finite() {
        return None;
    }
    let dp_du = (e1 * d2.y - e2 * d1.y) / det;
    let dp_dv = (e2 * d1.x - e1 * d2.x) / det;
    Some((dp_du, dp_dv)).filter(|(u, v)| u.is_finite() && v.is_finite())
}

/// `tangent` made orthogonal to `normal` and unit, with the sign that makes
/// `cross(normal, tangent) × w` point along `up` (the direction of decreasing v); zero where
/// there is no such direction.
fn frame(normal: Vec3, tangent: Vec3, up: Vec3) -> Vec4 {
    let n = normal.normalize_or_zero();
    let Some(t) = (tangent - n * n.dot(tangent)).try_normalize() else { return Vec4::ZERO };
    let w = if n.cross(t).dot(up) < 0.0 { -1.0 } else { 1.0 };
    t.extend(w)
}

/// Area-weighted `dP/du` summed per vertex (see the module docs).
pub fn accumulate(mesh: &mut MeshData) {
    let mut sums = vec![(Vec3::ZERO, Vec3::ZERO); mesh.vertices.len()];
    for tri in mesh.indices.chunks_exact(3) {
        let corners = [tri[0], tri[1], tri[2]].map(|i| mesh.vertices[i as usize]);
        let p = corners.map(|v| Vec3::from(v.position));
        let Some((du, dv)) = uv_gradients(p, corners.map(|v| Vec2::from(v.uv))) else { continue };
        let area = (p[1] - p[0]).cross(p[2] - p[0]).length();
        let (du, up) = (du.normalize_or_zero() * area, -dv.normalize_or_zero() * area);
        for &i in tri {
            let sum = &mut sums[i as usize];
            sum.0 += du;
            sum.1 += up;
        }
    }
    for (vertex, (du, up)) in mesh.vertices.iter_mut().zip(sums) {
        vertex.set_tangent(frame(Vec3::from(vertex.normal), du, up));
    }
}

/// MikkTSpace tangents from texture-coordinate set `set` (0 or 1), splitting and re-welding
/// vertices as needed (see the module docs). A mesh MikkTSpace refuses (no triangles) is left
/// as it is.
pub fn mikktspace(mesh: &mut MeshData, set: u32) {
    struct Corners<'a> {
        mesh: &'a MeshData,
        set: u32,
        tangents: Vec<Vec4>,
    }
    impl Corners<'_> {
        fn vertex(&self, face: usize, corner: usize) -> &Vertex {
            &self.mesh.vertices[self.mesh.indices[face * 3 + corner] as usize]
        }
    }
    impl mikktspace::Geometry for Corners<'_> {
        fn num_faces(&self) -> usize {
            self.mesh.indices.len() / 3
        }
        fn num_vertices_of_face(&self, _face: usize) -> usize {
            3
        }
        fn position(&self, face: usize, corner: usize) -> [f32; 3] {
            self.vertex(face, corner).position
        }
        fn normal(&self, face: usize, corner: usize) -> [f32; 3] {
            self.vertex(face, corner).normal
        }
        fn tex_coord(&self, face: usize, corner: usize) -> [f32; 2] {
            let vertex = self.vertex(face, corner);
            // MikkTSpace's sign is for a v axis that grows upwards: glTF's grows downwards.
            let [u, v] = if self.set == 1 { vertex.uv1 } else { vertex.uv };
            [u, -v]
        }
        fn set_tangent_encoded(&mut self, tangent: [f32; 4], face: usize, corner: usize) {
            self.tangents[face * 3 + corner] = Vec4::from(tangent);
        }
    }

    let whole = mesh.indices.len() / 3 * 3;
    if whole == 0 || mesh.indices[..whole].iter().any(|&i| i as usize >= mesh.vertices.len()) {
        return;
    }
    // The crate drops triangles with two equal corner positions, and with none left it
    // underflows a count (a panic in debug builds, a runaway loop in release): such a mesh has
    // no surface to take tangents from anyway.
    let has_area = |t: &[u32]| {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.vertices[i as usize].position);
        a != b && a != c && b != c
    };
    if !mesh.indices[..whole].chunks_exact(3).any(has_area) {
        return;
    }
    let mut corners = Corners { mesh, set, tangents: vec![Vec4::ZERO; whole] };
    if !mikktspace::generate_tangents(&mut corners) {
        return;
    }
    let tangents = corners.tangents;
    // One vertex per distinct (vertex, tangent): split where corners disagree, weld the rest.
    let mut welded: HashMap<[u32; 14], u32> = HashMap::with_capacity(mesh.vertices.len());
    let mut vertices = Vec::with_capacity(mesh.vertices.len());
    for (corner, index) in mesh.indices[..whole].iter_mut().enumerate() {
        let mut vertex = mesh.vertices[*index as usize];
        let tangent = tangents[corner];
        vertex.set_tangent(if tangent.is_finite() { tangent } else { Vec4::ZERO });
        let key: [u32; 14] = bytemuck::cast(vertex);
        *index = *welded.entry(key).or_insert_with(|| {
            vertices.push(vertex);
            vertices.len() as u32 - 1
        });
    }
    mesh.vertices = vertices;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit quad facing +Z with its texture upright: u to the right (+X), v down (−Y).
    fn quad(mirrored: bool) -> MeshData {
        let u = |x: f32| if mirrored { 1.0 - x } else { x };
        let vertices = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
            .map(|[x, y]| Vertex::new([x, y, 0.0], [0.0, 0.0, 1.0], [u(x), 1.0 - y]))
            .to_vec();
        let mut mesh = MeshData { vertices, indices: vec![0, 1, 2, 0, 2, 3] };
        mesh.orient_to_normals();
        mesh
    }

    fn bitangent(vertex: &Vertex) -> Vec3 {
        let t = vertex.tangent();
        Vec3::from(vertex.normal).cross(t.truncate()) * t.w
    }

    #[test]
    fn both_generators_follow_the_gltf_convention() {
        for generate in [accumulate as fn(&mut MeshData), |m: &mut MeshData| mikktspace(m, 0)] {
            let mut upright = quad(false);
            generate(&mut upright);
            for vertex in &upright.vertices {
                assert!(vertex.tangent().truncate().distance(Vec3::X) < 1e-3, "{:?}", vertex.tangent());
                assert!(bitangent(vertex).distance(Vec3::Y) < 1e-3, "image up is +Y: {}", bitangent(vertex));
            }
            let mut mirrored = quad(true);
            generate(&mut mirrored);
            for vertex in &mirrored.vertices {
                assert!(vertex.tangent().truncate().distance(-Vec3::X) < 1e-3, "{:?}", vertex.tangent());
                assert!(bitangent(vertex).distance(Vec3::Y) < 1e-3, "mirrored in u only: {}", bitangent(vertex));
            }
        }
    }

    #[test]
    fn mikktspace_splits_a_seam_and_welds_the_rest() {
        // Two quads sharing an edge whose second quad's texture is mirrored: the shared
        // vertices need two tangents each.
        let mut mesh = quad(false);
        let shared = [1u32, 2];
        let base = mesh.vertices.len() as u32;
        mesh.vertices.push(Vertex::new([2.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0]));
        mesh.vertices.push(Vertex::new([2.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0]));
        mesh.indices.extend([shared[0], base, base + 1, shared[0], base + 1, shared[1]]);
        mikktspace(&mut mesh, 0);
        assert_eq!(mesh.vertices.len(), 8, "4 + 2 of the mirrored quad + 2 split from the shared edge");
        assert_eq!(mesh.indices.len(), 12);
    }

    #[test]
    fn mikktspace_leaves_a_mesh_of_collapsed_triangles_alone() {
        let mut mesh = quad(false);
        mesh.vertices.iter_mut().for_each(|v| v.position = [1.0, 2.0, 3.0]);
        mikktspace(&mut mesh, 0);
        assert_eq!(mesh.vertices.len(), 4);
        assert!(mesh.vertices.iter().all(|v| v.tangent == [0; 4]));
    }

    #[test]
    fn degenerate_uvs_leave_zero_tangents() {
        let mut mesh = quad(false);
        mesh.vertices.iter_mut().for_each(|v| v.uv = [0.5, 0.5]);
        accumulate(&mut mesh);
        assert!(mesh.vertices.iter().all(|v| v.tangent == [0; 4]));
    }
}
