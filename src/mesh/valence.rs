//! Vertices shared by very many triangles ("hubs": the centre of a fan, a point every
//! triangle of a broken export collapses to), and the work they cause.
//!
//! meshoptimizer's vertex-cache ordering updates, for each triangle it emits, the score of
//! every triangle around its corners, and its simplifier classifies each vertex by walking
//! its edges against its neighbours' edge lists: both cost about the square of a vertex's
//! corner count. An ordinary mesh has six or so corners per vertex and costs nothing here; a
//! 150,000-triangle fan costs 150,000² for its centre alone (half a minute on 2 cores), and
//! 333,333 degenerate triangles on one welded vertex never finished. [`Hubs::work`] sums that
//! square over the vertices past [`HUB_CORNERS`], and the callers skip the step whose cost it
//! measures when it is over [`MAX_HUB_WORK`]: the vertex-cache order only saves vertex-shader
//! time, and a mesh that is not simplified draws at full detail, so neither changes a pixel.

use crate::tunables::{HUB_CORNERS, MAX_HUB_WORK};

/// The hubs of a mesh: what its crowded vertices cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hubs {
    /// Σ corners² over the vertices with more than [`HUB_CORNERS`] triangle corners.
    pub work: u64,
    /// Corners of the most crowded vertex.
    pub largest: u32,
    /// That vertex (an index into the mesh's vertices).
    pub vertex: u32,
}

impl Hubs {
    /// Hubs counted by vertex index: what the vertex-cache order sees.
    pub fn by_index(indices: &[u32], vertex_count: usize) -> Self {
        Self::count(indices.iter().map(|&i| i as usize), vertex_count, |class| class as u32)
    }

    /// Hubs counted by position (every vertex at one position is one vertex, whatever its
    /// other attributes): what the simplifier sees. `positions[i]` is vertex i's.
    pub fn by_position(indices: &[u32], positions: &[[f32; 3]]) -> Self {
        let bits = |i: u32| positions[i as usize].map(f32::to_bits);
        let mut order: Vec<u32> = (0..positions.len() as u32).collect();
        order.sort_unstable_by_key(|&i| bits(i));
        let mut class = vec![0u32; positions.len()];
        let mut first = Vec::new();
        for run in order.chunk_by(|&a, &b| bits(a) == bits(b)) {
            run.iter().for_each(|&i| class[i as usize] = first.len() as u32);
            first.push(run[0]);
        }
        let corners = indices.iter().filter_map(|&i| class.get(i as usize).map(|&c| c as usize));
        Self::count(corners, first.len(), |c| first[c])
    }

    fn count(corners: impl Iterator<Item = usize>, classes: usize, vertex: impl Fn(usize) -> u32) -> Self {
        let mut counts = vec![0u32; classes];
        for class in corners {
            if let Some(count) = counts.get_mut(class) {
                *count = count.saturating_add(1);
            }
        }
        let mut hubs = Hubs::default();
        for (class, &count) in counts.iter().enumerate() {
            if u64::from(count) > HUB_CORNERS {
                hubs.work = hubs.work.saturating_add(u64::from(count) * u64::from(count));
            }
            if count > hubs.largest {
                (hubs.largest, hubs.vertex) = (count, vertex(class));
            }
        }
        hubs
    }

    /// Whether the squared-valence steps would take too long: over [`MAX_HUB_WORK`].
    pub fn too_crowded(&self) -> bool {
        self.work > MAX_HUB_WORK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::procedural;

    /// A fan of `n` triangles around vertex 0.
    fn fan(n: u32) -> Vec<u32> {
        (0..n).flat_map(|i| [0, 1 + i, 1 + (i + 1) % n]).collect()
    }

    #[test]
    fn ordinary_meshes_have_no_hubs() {
        for mesh in [procedural::uv_sphere(64, 32), procedural::torus(32, 16), procedural::icosphere(4)] {
            let hubs = Hubs::by_index(&mesh.indices, mesh.vertices.len());
            assert_eq!(hubs.work, 0, "{hubs:?}");
            assert!(!hubs.too_crowded());
        }
    }

    #[test]
    fn a_fan_centre_is_counted_by_index_and_by_position() {
        let indices = fan(150_000);
        let hubs = Hubs::by_index(&indices, 150_001);
        assert_eq!((hubs.largest, hubs.vertex), (150_000, 0));
        assert_eq!(hubs.work, 150_000 * 150_000);
        assert!(hubs.too_crowded());
        // The same centre split into copies per triangle (a flat-shaded export): one position.
        let mut positions = vec![[0.0f32; 3]; 150_000];
        positions.extend((0..150_000).map(|i| [i as f32 + 1.0, 1.0, 0.0]));
        let split: Vec<u32> = (0..150_000u32).flat_map(|i| [i, 150_000 + i, 150_000 + (i + 1) % 150_000]).collect();
        assert_eq!(Hubs::by_index(&split, positions.len()).work, 0);
        let by_position = Hubs::by_position(&split, &positions);
        assert_eq!(by_position.largest, 150_000);
        assert!(by_position.too_crowded());
    }

    #[test]
    fn a_small_fan_is_not_too_crowded() {
        // A 4,096-segment cylinder cap: 4,096² is well under the limit.
        let hubs = Hubs::by_index(&fan(4096), 4097);
        assert_eq!(hubs.work, 4096 * 4096);
        assert!(!hubs.too_crowded());
    }
}
