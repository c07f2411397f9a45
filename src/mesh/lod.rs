//! Levels of detail: a chain of ever coarser versions of one mesh, each with its geometric
//! error against the full mesh.
//!
//! Where the coarser versions come from is the caller's business: procedural shapes
//! tessellate themselves more coarsely ([`super::procedural::Shape::lods`]), imported meshes
//! are simplified ([`super::simplify`]). What every chain shares is decided here:
//! * a level is kept only if it drops at least [`LOD_MIN_TRIANGLE_SAVING`] of the previous
//!   level's triangles; the first one that does not ends the chain, as does [`MAX_LODS`];
//! * coarser levels hold only the vertices their triangles use;
//! * a level's error is measured, not derived from the shape: the sampled two-sided surface
//!   distance to level 0 ([`super::distance`]), in object-space units, raised to the previous
//!   level's error where it is smaller so errors never decrease along the chain (the GPU picks
//!   a level by comparing errors against a screen-space threshold, which assumes that order).

use super::distance::Surface;
use super::{LodChain, MeshData, MAX_LODS};
use crate::tunables::LOD_MIN_TRIANGLE_SAVING;

/// Whether a level of `triangles` triangles saves enough over a previous one of `previous`.
pub fn saves_enough(previous: usize, triangles: usize) -> bool {
    triangles as f64 <= previous as f64 * (1.0 - f64::from(LOD_MIN_TRIANGLE_SAVING))
}

/// A chain from level 0 and candidate coarser levels, in order. Candidates are built only as
/// far as they are used (at most [`MAX_LODS`], stopping at the first that saves too little or
/// has no triangles left).
pub fn chain(levels: impl IntoIterator<Item = MeshData>) -> LodChain {
    let mut levels = levels.into_iter();
    let Some(full) = levels.next() else {
        return LodChain::default();
    };
    let mut kept = vec![full];
    for level in levels {
        let previous = kept.last().expect("level 0 is always kept").indices.len() / 3;
        let triangles = level.indices.len() / 3;
        if kept.len() == MAX_LODS || triangles == 0 || !saves_enough(previous, triangles) {
            break;
        }
        kept.push(compact(level));
    }
    with_measured_errors(kept, &[])
}

/// Drops the vertices no triangle uses, keeping the others in order: a generator may leave
/// some (a UV sphere's pole rows), and a coarser level has no reason to carry them into the
/// arena. Level 0 is never compacted: it stays exactly the mesh as generated.
fn compact(mut mesh: MeshData) -> MeshData {
    let mut used = vec![false; mesh.vertices.len()];
    mesh.indices.iter().for_each(|&i| used[i as usize] = true);
    let mut remap = vec![0u32; mesh.vertices.len()];
    let mut kept = 0;
    for vertex in 0..mesh.vertices.len() {
        if used[vertex] {
            remap[vertex] = kept as u32;
            mesh.vertices[kept] = mesh.vertices[vertex];
            kept += 1;
        }
    }
    mesh.vertices.truncate(kept);
    mesh.indices.iter_mut().for_each(|i| *i = remap[*i as usize]);
    mesh
}

/// Gives each level its measured error against level 0, at least `floor[k]` where given
/// (an error estimate from elsewhere, such as a simplifier's), and never below the previous
/// level's. Level 0's error is 0.
pub fn with_measured_errors(levels: Vec<MeshData>, floor: &[f32]) -> LodChain {
    let full = (levels.len() > 1).then(|| Surface::new(&levels[0]));
    let mut previous = 0.0f32;
    let levels = levels
        .into_iter()
        .enumerate()
        .map(|(k, level)| {
            if k > 0 {
                let full = full.as_ref().expect("made when there is more than one level");
                let measured = full.distance(&Surface::new(&level));
                previous = previous.max(measured).max(floor.get(k).copied().unwrap_or(0.0));
            }
            (level, previous)
        })
        .collect();
    LodChain { levels }
}

impl LodChain {
    /// Triangles of each level, level 0 first.
    pub fn triangle_counts(&self) -> Vec<usize> {
        self.levels.iter().map(|(data, _)| data.indices.len() / 3).collect()
    }

    /// Each level's error, level 0 first.
    pub fn errors(&self) -> Vec<f32> {
        self.levels.iter().map(|&(_, error)| error).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::f32::consts::PI;

    use super::*;
    use crate::mesh::procedural::{self, Shape};

    fn shapes() -> Vec<Shape> {
        vec![
            Shape::Cube,
            Shape::UvSphere { segments: 16, rings: 8 },
            Shape::UvSphere { segments: 96, rings: 48 },
            Shape::UvSphere { segments: 3, rings: 2 },
            Shape::Icosphere { subdivisions: 5 },
            Shape::Icosphere { subdivisions: 0 },
            Shape::Torus { segments: 16, sides: 8 },
            Shape::Torus { segments: 3, sides: 3 },
            Shape::Cylinder { segments: 16 },
            Shape::Cylinder { segments: 3 },
            Shape::Cone { segments: 12 },
            Shape::rock(7),
        ]
    }

    #[test]
    fn level_zero_is_the_mesh_itself() {
        for shape in shapes() {
            let chain = shape.lods();
            let (full, error) = &chain.levels[0];
            let mesh = shape.mesh();
            assert_eq!(*error, 0.0, "{shape:?}");
            assert_eq!(full.vertices, mesh.vertices, "{shape:?}");
            assert_eq!(full.indices, mesh.indices, "{shape:?}");
        }
        for name in procedural::BUILTIN_NAMES {
            let chain = Shape::builtin(name).unwrap().lods();
            assert_eq!(chain.levels[0].0.indices, procedural::builtin(name).unwrap().indices, "{name}");
        }
    }

    #[test]
    fn levels_save_triangles_and_errors_grow() {
        for shape in shapes() {
            let chain = shape.lods();
            let counts = chain.triangle_counts();
            let errors = chain.errors();
            assert!((1..=MAX_LODS).contains(&counts.len()), "{shape:?}: {counts:?}");
            for k in 1..counts.len() {
                assert!(saves_enough(counts[k - 1], counts[k]), "{shape:?}: {counts:?}");
                assert!(errors[k].is_finite() && errors[k] >= errors[k - 1], "{shape:?}: {errors:?}");
                assert!(errors[k] > 0.0, "{shape:?}: a coarser level of a curved shape differs: {errors:?}");
            }
        }
    }

    #[test]
    fn chains_go_as_far_as_the_shape_allows() {
        let levels = |shape: Shape| shape.lods().levels.len();
        assert_eq!(levels(Shape::Cube), 1);
        assert_eq!(levels(Shape::Icosphere { subdivisions: 5 }), 6);
        assert_eq!(levels(Shape::Icosphere { subdivisions: 0 }), 1);
        assert_eq!(levels(Shape::UvSphere { segments: 96, rings: 48 }), 6);
        assert_eq!(levels(Shape::UvSphere { segments: 3, rings: 2 }), 1);
        assert_eq!(levels(Shape::UvSphere { segments: 16, rings: 8 }), 6);
        // A dense sphere halves both counts where single steps would end it too fine.
        let dense = Shape::UvSphere { segments: 256, rings: 180 }.lods().triangle_counts();
        assert!(dense.len() == 6 && *dense.last().unwrap() <= 100, "{dense:?}");
        assert_eq!(Shape::UvSphere { segments: 16, rings: 8 }.lods().triangle_counts(), [224, 112, 48, 24, 8, 6]);
        assert_eq!(Shape::Torus { segments: 16, sides: 8 }.lods().triangle_counts(), [256, 128, 64, 32, 24, 18]);
        assert_eq!(levels(Shape::Cylinder { segments: 12 }), 3);
        assert_eq!(levels(Shape::rock(7)), 2);
    }

    /// A UV sphere of radius 1 (16 × 8) and its 8 × 4 level. From below: a vertex of the fine
    /// sphere in the middle of a coarse equatorial edge lies `1 - cos(π / 8)` outside it. From
    /// above: both surfaces are star-shaped around the centre and lie between the unit sphere
    /// and the coarse level's innermost face plane, so the ray through any point of one meets
    /// the other within that shell.
    #[test]
    fn coarse_sphere_error_matches_the_geometry() {
        let unit = |mut mesh: MeshData| {
            for v in &mut mesh.vertices {
                v.position = (glam::Vec3::from(v.position) * 2.0).into();
            }
            mesh
        };
        let coarse = unit(procedural::uv_sphere(8, 4));
        let innermost_plane = coarse
            .indices
            .chunks_exact(3)
            .map(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| glam::Vec3::from(coarse.vertices[i as usize].position));
                (b - a).cross(c - a).normalize().dot(a).abs()
            })
            .fold(f32::MAX, f32::min);
        let chain = with_measured_errors(vec![unit(procedural::uv_sphere(16, 8)), coarse], &[]);
        let error = chain.levels[1].1;
        let sag = 1.0 - (PI / 8.0).cos();
        assert!(error >= sag - 1e-5, "{error} < edge sag {sag}");
        assert!(error <= 1.0 - innermost_plane + 1e-5, "{error} > shell {}", 1.0 - innermost_plane);
        assert!(error <= 2.0 * sag, "{error} is far from the edge sag {sag}");
    }

    #[test]
    fn identical_levels_measure_zero() {
        let mesh = procedural::torus(16, 8);
        let chain = with_measured_errors(vec![mesh.clone(), mesh], &[]);
        assert_eq!(chain.errors()[0], 0.0);
        assert!(chain.errors()[1] < 1e-6, "{:?}: zero up to rounding", chain.errors());
    }

    #[test]
    fn floor_and_monotonic() {
        let chain = with_measured_errors(
            vec![procedural::uv_sphere(32, 16), procedural::uv_sphere(16, 8), procedural::uv_sphere(30, 15)],
            &[0.0, 0.5, 0.0],
        );
        let errors = chain.errors();
        assert_eq!(errors[1], 0.5);
        assert_eq!(errors[2], 0.5, "the third level is finer but its error may not drop");
    }

    /// A coarser rock's corners are corners of the full rock: same seed, same displacement.
    #[test]
    fn coarse_rock_is_the_same_rock() {
        let chain = Shape::rock(3).lods();
        let full: Vec<[f32; 3]> = chain.levels[0].0.vertices.iter().map(|v| v.position).collect();
        for vertex in &chain.levels[1].0.vertices {
            assert!(full.contains(&vertex.position), "{:?} is not on the full rock", vertex.position);
        }
    }
}
