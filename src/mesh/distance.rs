//! How far apart two triangle surfaces are: the geometric error of a level of detail.
//!
//! The measure is a sampled two-sided Hausdorff distance. Each surface is sampled at its
//! vertices, its edge midpoints and its triangle centroids. For each sample we find the exact
//! distance to the nearest triangle of the other surface. The result is the largest of these
//! distances, in both directions. Between samples the true distance can only be larger by
//! about half an edge of the sampled mesh. For coarsened tessellations of one shape, the
//! extremes sit at these samples: the fine mesh's vertices in the middle of a coarse face, and
//! the coarse faces' centres and edge midpoints.
//!
//! A bounding volume hierarchy over the target's triangles finds the nearest triangle. Two
//! observations make a query cheap, so a 256 × 256 sphere (130k triangles) stays well under a
//! second per level (the Taha–Hanbury early break):
//! * a sample can only raise the maximum if it is farther than the current maximum from every
//!   triangle, so the search stops at the first triangle within that distance;
//! * consecutive samples lie close together, so the previous sample's nearest triangle is
//!   tested first and usually ends the search at once.

use glam::Vec3;

use super::MeshData;
use crate::tunables::MAX_DISTANCE_SAMPLES;

/// Triangles per BVH leaf: small leaves keep the exact distance tests few; four is where
/// the node count and the per-leaf tests roughly balance.
const LEAF_TRIANGLES: usize = 4;

/// One mesh prepared for distance queries: its triangles in a BVH and its sample points.
pub struct Surface {
    triangles: Vec<[Vec3; 3]>,
    nodes: Vec<Node>,
    samples: Vec<Vec3>,
}

/// A BVH node. A leaf (`count > 0`) holds `triangles[first..first + count]`; an inner node's
/// children are the next node and node `first`.
#[derive(Clone, Copy)]
struct Node {
    min: Vec3,
    max: Vec3,
    first: u32,
    count: u32,
}

impl Surface {
    pub fn new(mesh: &MeshData) -> Self {
        let position = |i: u32| Vec3::from(mesh.vertices[i as usize].position);
        let mut triangles: Vec<[Vec3; 3]> =
            mesh.indices.chunks_exact(3).map(|t| [position(t[0]), position(t[1]), position(t[2])]).collect();

        let mut used = vec![false; mesh.vertices.len()];
        for &i in &mesh.indices {
            used[i as usize] = true;
        }
        let mut samples: Vec<Vec3> =
            (0..mesh.vertices.len() as u32).filter(|&i| used[i as usize]).map(position).collect();
        for &[a, b, c] in &triangles {
            samples.extend([(a + b) * 0.5, (b + c) * 0.5, (c + a) * 0.5, (a + b + c) / 3.0]);
        }
        let samples = thin(samples, MAX_DISTANCE_SAMPLES);

        let mut nodes = Vec::with_capacity(2 * triangles.len() / LEAF_TRIANGLES + 1);
        if !triangles.is_empty() {
            let count = triangles.len();
            build(&mut triangles, 0, count, &mut nodes);
        }
        Self { triangles, nodes, samples }
    }

    /// The two-sided distance between the two surfaces: the larger of the farthest sample of
    /// each from the other. Infinite when either has no triangles.
    pub fn distance(&self, other: &Surface) -> f32 {
        let there = self.farthest_sample_squared(other, 0.0);
        other.farthest_sample_squared(self, there).sqrt()
    }

    /// The largest squared distance from one of `self`'s samples to `target`, or `at_least` if
    /// none is farther than that.
    fn farthest_sample_squared(&self, target: &Surface, at_least: f32) -> f32 {
        if target.triangles.is_empty() {
            return if self.samples.is_empty() { at_least } else { f32::INFINITY };
        }
        let mut farthest = at_least;
        let mut hint = 0;
        for &sample in &self.samples {
            farthest = farthest.max(target.nearest_squared(sample, &mut hint, farthest));
        }
        farthest
    }

    /// Squared distance from `point` to the nearest triangle, except that the search stops as
    /// soon as it finds one within `enough` (squared), returning that triangle's distance.
    /// `hint` is tested first and then set to the nearest triangle found.
    fn nearest_squared(&self, point: Vec3, hint: &mut usize, enough: f32) -> f32 {
        let mut best = triangle_distance_squared(point, &self.triangles[*hint]);
        if best <= enough {
            return best;
        }
        let mut stack = Vec::with_capacity(64);
        stack.push(0u32);
        while let Some(index) = stack.pop() {
            let node = self.nodes[index as usize];
            if box_distance_squared(point, node.min, node.max) >= best {
                continue;
            }
            if node.count > 0 {
                let range = node.first as usize..(node.first + node.count) as usize;
                for (i, triangle) in self.triangles[range.clone()].iter().enumerate() {
                    let distance = triangle_distance_squared(point, triangle);
                    if distance < best {
                        best = distance;
                        *hint = range.start + i;
                        if best <= enough {
                            return best;
                        }
                    }
                }
                continue;
            }
            let (near, far) = (index + 1, node.first);
            let [near_box, far_box] = [near, far].map(|child| {
                let n = &self.nodes[child as usize];
                box_distance_squared(point, n.min, n.max)
            });
            // The nearer child goes on top so it is searched first and tightens `best`.
            if near_box <= far_box {
                stack.extend([far, near]);
            } else {
                stack.extend([near, far]);
            }
        }
        best
    }
}

/// At most about `cap` of `samples`, at an even stride. The stride is odd so that it walks
/// through every kind of per-triangle sample (three midpoints and a centroid, four in a row)
/// rather than always landing on the same one.
fn thin(samples: Vec<Vec3>, cap: usize) -> Vec<Vec3> {
    if samples.len() <= cap {
        return samples;
    }
    let stride = samples.len().div_ceil(cap) | 1;
    samples.into_iter().step_by(stride).collect()
}

/// Builds the subtree over `triangles[first..first + count]`, reordering them so every
/// node's triangles are contiguous; splits at the median of the longest axis of the centroids.
fn build(triangles: &mut [[Vec3; 3]], first: usize, count: usize, nodes: &mut Vec<Node>) {
    let slice = &mut triangles[first..first + count];
    let (min, max) = slice
        .iter()
        .flatten()
        .fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    let index = nodes.len();
    nodes.push(Node { min, max, first: first as u32, count: count as u32 });
    if count <= LEAF_TRIANGLES {
        return;
    }
    let centroid = |t: &[Vec3; 3]| t[0] + t[1] + t[2];
    let (lo, hi) = slice
        .iter()
        .map(centroid)
        .fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), c| (lo.min(c), hi.max(c)));
    let axis = (hi - lo).max_position();
    let half = count / 2;
    slice.select_nth_unstable_by(half, |a, b| centroid(a)[axis].total_cmp(&centroid(b)[axis]));
    build(triangles, first, half, nodes);
    let right = nodes.len() as u32;
    build(triangles, first + half, count - half, nodes);
    nodes[index].first = right;
    nodes[index].count = 0;
}

fn box_distance_squared(point: Vec3, min: Vec3, max: Vec3) -> f32 {
    let outside = (min - point).max(point - max).max(Vec3::ZERO);
    outside.length_squared()
}

/// Exact squared distance from a point to a triangle, by the Voronoi regions of its
/// vertices, edges and face (Ericson, *Real-Time Collision Detection*, 5.1.5). A degenerate
/// triangle (a segment or a point) is measured by its edges.
pub fn triangle_distance_squared(p: Vec3, [a, b, c]: &[Vec3; 3]) -> f32 {
    let (ab, ac, ap) = (*b - *a, *c - *a, p - *a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return ap.length_squared();
    }
    let bp = p - *b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return bp.length_squared();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let v = d1 / (d1 - d3);
        return (ap - ab * v).length_squared();
    }
    let cp = p - *c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return cp.length_squared();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let w = d2 / (d2 - d6);
        return (ap - ac * w).length_squared();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return (bp - (*c - *b) * w).length_squared();
    }
    let sum = va + vb + vc;
    if sum <= f32::MIN_POSITIVE {
        return [(*a, *b), (*b, *c), (*c, *a)]
            .map(|(s, e)| segment_distance_squared(p, s, e))
            .into_iter()
            .fold(f32::MAX, f32::min);
    }
    let (v, w) = (vb / sum, vc / sum);
    (ap - ab * v - ac * w).length_squared()
}

fn segment_distance_squared(p: Vec3, start: Vec3, end: Vec3) -> f32 {
    let along = end - start;
    let t = if along.length_squared() > 0.0 {
        ((p - start).dot(along) / along.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p - start - along * t).length_squared()
}

/// The sampled two-sided distance between two meshes' surfaces (see the module header).
pub fn surface_distance(a: &MeshData, b: &MeshData) -> f32 {
    Surface::new(a).distance(&Surface::new(b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::procedural;

    /// Brute force over every triangle, for comparison with the BVH.
    fn nearest_brute(surface: &Surface, p: Vec3) -> f32 {
        surface.triangles.iter().map(|t| triangle_distance_squared(p, t)).fold(f32::MAX, f32::min)
    }

    #[test]
    fn point_triangle_regions() {
        let t = [Vec3::ZERO, Vec3::X, Vec3::Y];
        let cases = [
            (Vec3::new(0.25, 0.25, 2.0), 4.0), // above the face
            (Vec3::new(-1.0, -1.0, 0.0), 2.0), // vertex a
            (Vec3::new(3.0, 0.0, 0.0), 4.0),   // vertex b
            (Vec3::new(0.5, -2.0, 0.0), 4.0),  // edge ab
            (Vec3::new(1.0, 1.0, 0.0), 0.5),   // edge bc
            (Vec3::new(-3.0, 0.5, 1.0), 10.0), // edge ca
            (Vec3::new(0.1, 0.2, 0.0), 0.0),   // inside
        ];
        for (p, expected) in cases {
            let d = triangle_distance_squared(p, &t);
            assert!((d - expected).abs() < 1e-5, "{p}: {d} != {expected}");
        }
        let segment = [Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
        assert!((triangle_distance_squared(Vec3::new(1.0, 1.0, 0.0), &segment) - 1.0).abs() < 1e-6);
    }

    #[test]
    fn bvh_matches_brute_force() {
        let surface = Surface::new(&procedural::torus(24, 12));
        let mut hint = 0;
        for i in 0..500u32 {
            let p = Vec3::new(
                procedural::hash01(i * 3) - 0.5,
                procedural::hash01(i * 3 + 1) - 0.5,
                procedural::hash01(i * 3 + 2) - 0.5,
            ) * 1.5;
            let fast = surface.nearest_squared(p, &mut hint, 0.0);
            assert!((fast - nearest_brute(&surface, p)).abs() < 1e-6, "{p}");
        }
    }

    /// Zero up to rounding: a centroid is not exactly on its triangle's plane in `f32`.
    #[test]
    fn identical_meshes_are_zero_apart() {
        for mesh in [procedural::uv_sphere(32, 16), procedural::torus(16, 8), procedural::rock(5), procedural::cube()] {
            let d = surface_distance(&mesh, &mesh);
            assert!(d < 1e-6 * mesh.bounding_sphere().w, "{d}");
        }
    }

    /// Each triangle split in four at its edge midpoints: the same surface, sampled twice as
    /// densely along each edge.
    fn split(mesh: &MeshData) -> MeshData {
        let mut out = MeshData { vertices: mesh.vertices.clone(), indices: Vec::new() };
        for t in mesh.indices.chunks_exact(3) {
            let mut mid = |a: u32, b: u32| {
                let mut v = out.vertices[a as usize];
                let (pa, pb) = (Vec3::from(v.position), Vec3::from(out.vertices[b as usize].position));
                v.position = ((pa + pb) * 0.5).into();
                out.vertices.push(v);
                out.vertices.len() as u32 - 1
            };
            let (ab, bc, ca) = (mid(t[0], t[1]), mid(t[1], t[2]), mid(t[2], t[0]));
            out.indices.extend([t[0], ab, ca, t[1], bc, ab, t[2], ca, bc, ab, bc, ca]);
        }
        out
    }

    /// The samples find the extremes: sampling both surfaces twice as densely raises the
    /// measured distance by less than a percent for coarsened tessellations.
    #[test]
    fn denser_sampling_changes_little() {
        let pairs = [
            (procedural::uv_sphere(16, 8), procedural::uv_sphere(8, 4)),
            (procedural::torus(16, 8), procedural::torus(8, 4)),
            (procedural::cone(12), procedural::cone(6)),
            (procedural::icosphere(2), procedural::icosphere(0)),
        ];
        for (fine, coarse) in pairs {
            let sampled = surface_distance(&fine, &coarse);
            let denser = surface_distance(&split(&fine), &split(&coarse));
            assert!(denser >= sampled - 1e-6 && denser <= sampled * 1.01, "{sampled} vs {denser}");
        }
    }

    /// Thinning a dense mesh's samples to [`MAX_DISTANCE_SAMPLES`] measures about what
    /// sampling all of them does.
    #[test]
    fn thinned_samples_find_the_extremes() {
        let full = |fine: &MeshData, coarse: &MeshData| {
            let [a, b] = [fine, coarse].map(|mesh| {
                let mut surface = Surface::new(mesh);
                surface.samples = sampled_everywhere(mesh);
                surface
            });
            a.distance(&b)
        };
        for (fine, coarse) in [
            (procedural::uv_sphere(256, 256), procedural::uv_sphere(128, 128)),
            (procedural::torus(256, 128), procedural::torus(64, 32)),
        ] {
            assert!(Surface::new(&fine).samples.len() <= MAX_DISTANCE_SAMPLES + 1);
            let thinned = surface_distance(&fine, &coarse);
            let exact = full(&fine, &coarse);
            assert!(thinned <= exact + 1e-6 && thinned >= exact * 0.98, "{thinned} vs {exact}");
        }
    }

    fn sampled_everywhere(mesh: &MeshData) -> Vec<Vec3> {
        let position = |i: u32| Vec3::from(mesh.vertices[i as usize].position);
        let mut samples: Vec<Vec3> = mesh.indices.iter().map(|&i| position(i)).collect();
        for t in mesh.indices.chunks_exact(3) {
            let [a, b, c] = [t[0], t[1], t[2]].map(position);
            samples.extend([(a + b) * 0.5, (b + c) * 0.5, (c + a) * 0.5, (a + b + c) / 3.0]);
        }
        samples
    }

    #[test]
    fn offset_surface_distance_is_the_offset() {
        let cube = procedural::cube();
        let mut moved = cube.clone();
        for v in &mut moved.vertices {
            v.position[1] += 0.25;
        }
        let d = surface_distance(&cube, &moved);
        assert!((d - 0.25).abs() < 1e-5, "{d}");
    }
}
