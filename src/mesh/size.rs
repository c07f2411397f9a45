//! Sizes of procedural meshes from their parameters alone, so a scene's vertex and index
//! counts are known before anything is generated (a file of a thousand 256 × 256 spheres is
//! refused in microseconds, not after building gigabytes).
//!
//! Each formula follows its generator in [`super::procedural`]; the tests compare them with
//! the generated meshes and chains.

use super::lod::saves_enough;
use super::procedural::Shape;

/// Vertex and index counts of a mesh or of a whole chain of levels of detail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MeshSize {
    pub vertices: u64,
    pub indices: u64,
    pub levels: u32,
}

impl MeshSize {
    pub fn plus(self, other: MeshSize) -> MeshSize {
        MeshSize {
            vertices: self.vertices.saturating_add(other.vertices),
            indices: self.indices.saturating_add(other.indices),
            levels: self.levels.saturating_add(other.levels),
        }
    }

    /// The same size `n` times over.
    pub fn times(self, n: u64) -> MeshSize {
        MeshSize {
            vertices: self.vertices.saturating_mul(n),
            indices: self.indices.saturating_mul(n),
            levels: self.levels.saturating_mul(n.min(u32::MAX as u64) as u32),
        }
    }
}

impl Shape {
    /// Vertices and triangles of [`Shape::mesh`], and the vertices its triangles use (what a
    /// coarser level keeps after compaction).
    fn counts(&self) -> (u64, u64, u64) {
        let four = |n: u32| 4u64.saturating_pow(n);
        match *self {
            Shape::Cube => (24, 12, 24),
            Shape::UvSphere { segments, rings } => {
                let (s, r) = (segments as u64, rings as u64);
                // The first triangle of each quad at the north pole and the second at the
                // south pole are degenerate and dropped; so are one vertex in each pole row.
                ((s + 1) * (r + 1), 2 * s * r - 2 * s, (s + 1) * (r + 1) - 2)
            }
            Shape::Torus { segments, sides } => {
                let (s, t) = (segments as u64, sides as u64);
                ((s + 1) * (t + 1), 2 * s * t, (s + 1) * (t + 1))
            }
            // Per segment: four side vertices and three per cap, two side triangles and one
            // per cap.
            Shape::Cylinder { segments } => (10 * segments as u64, 4 * segments as u64, 10 * segments as u64),
            // No top cap, one side triangle; the side's fourth (top) vertex is unused.
            Shape::Cone { segments } => (7 * segments as u64, 2 * segments as u64, 6 * segments as u64),
            Shape::Icosphere { subdivisions } => {
                let n = four(subdivisions);
                (10 * n + 2, 20 * n, 10 * n + 2)
            }
            Shape::Rock { subdivisions, .. } => {
                let n = four(subdivisions);
                (60 * n, 20 * n, 60 * n)
            }
        }
    }

    /// The size of [`Shape::mesh`].
    pub fn size(&self) -> MeshSize {
        let (vertices, triangles, _) = self.counts();
        MeshSize { vertices, indices: 3 * triangles, levels: 1 }
    }

    /// The size of [`Shape::lods`]: level 0 as generated, coarser levels compacted, kept by
    /// the same rules as [`super::lod::chain`].
    pub fn chain_size(&self) -> MeshSize {
        let mut total = self.size();
        let mut previous = total.indices / 3;
        for coarser in self.chain_shapes().skip(1) {
            let (_, triangles, used) = coarser.counts();
            if triangles == 0 || !saves_enough(previous as usize, triangles as usize) {
                break;
            }
            total = total.plus(MeshSize { vertices: used, indices: 3 * triangles, levels: 1 });
            previous = triangles;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(data: &crate::mesh::MeshData) -> MeshSize {
        MeshSize { vertices: data.vertices.len() as u64, indices: data.indices.len() as u64, levels: 1 }
    }

    #[test]
    fn sizes_match_the_generated_meshes() {
        let mut shapes = vec![Shape::Cube];
        for n in [3, 4, 5, 7, 16, 33, 64, 255, 256] {
            for m in [2, 3, 8, 31, 128, 256] {
                shapes.push(Shape::UvSphere { segments: n, rings: m });
                if m >= 3 {
                    shapes.push(Shape::Torus { segments: n, sides: m });
                }
            }
            shapes.push(Shape::Cylinder { segments: n });
            shapes.push(Shape::Cone { segments: n });
        }
        for n in 0..=5 {
            shapes.push(Shape::Icosphere { subdivisions: n });
            shapes.push(Shape::Rock { seed: 3, subdivisions: n });
        }
        for shape in shapes {
            assert_eq!(shape.size(), measured(&shape.mesh()), "{shape:?}");
        }
    }

    #[test]
    fn chain_sizes_match_the_generated_chains() {
        let shapes = [
            Shape::Cube,
            Shape::UvSphere { segments: 16, rings: 8 },
            Shape::UvSphere { segments: 96, rings: 48 },
            Shape::UvSphere { segments: 3, rings: 2 },
            Shape::UvSphere { segments: 200, rings: 3 },
            Shape::Icosphere { subdivisions: 5 },
            Shape::Icosphere { subdivisions: 0 },
            Shape::Torus { segments: 16, sides: 8 },
            Shape::Torus { segments: 40, sides: 3 },
            Shape::Cylinder { segments: 12 },
            Shape::Cylinder { segments: 256 },
            Shape::Cone { segments: 12 },
            Shape::Cone { segments: 7 },
            Shape::rock(7),
        ];
        for shape in shapes {
            let chain = shape.lods();
            let total = chain.levels.iter().fold(MeshSize::default(), |sum, (data, _)| sum.plus(measured(data)));
            assert_eq!(shape.chain_size(), total, "{shape:?}");
        }
    }
}
