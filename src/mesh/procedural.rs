//! Procedural meshes: cube, UV sphere, icosphere, torus, cylinder, cone and a low-poly rock.
//! All are centred on the origin with unit-ish size; triangles are oriented to their normals by
//! [`MeshData::orient_to_normals`], so generators only need correct normals.

use std::collections::HashMap;
use std::f32::consts::{PI, TAU};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use glam::{Vec2, Vec3};

use super::{tangents, LodChain, MeshData, Vertex};

fn vertex(position: Vec3, normal: Vec3, uv: Vec2) -> Vertex {
    Vertex::new(position.into(), normal.normalize_or_zero().into(), uv.into())
}

fn finish(mut data: MeshData) -> MeshData {
    data.orient_to_normals();
    tangents::accumulate(&mut data);
    data
}

/// Axis-aligned cube of edge 1, flat normals.
pub fn cube() -> MeshData {
    let mut data = MeshData::default();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let mut normal = Vec3::ZERO;
            normal[axis] = sign;
            let (mut u, mut v) = (Vec3::ZERO, Vec3::ZERO);
            u[(axis + 1) % 3] = 1.0;
            v[(axis + 2) % 3] = 1.0;
            let base = data.vertices.len() as u32;
            for (su, sv) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                let p = (normal + u * su + v * sv) * 0.5;
                data.vertices.push(vertex(p, normal, Vec2::new((su + 1.0) * 0.5, (sv + 1.0) * 0.5)));
            }
            data.indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
    }
    finish(data)
}

/// Grid of (segments + 1) × (rings + 1) vertices from a parametric surface; `f(u, v)` returns
/// position and normal for u, v in [0, 1].
fn parametric(segments: u32, rings: u32, f: impl Fn(f32, f32) -> (Vec3, Vec3)) -> MeshData {
    let mut data = MeshData::default();
    for ring in 0..=rings {
        for segment in 0..=segments {
            let (u, v) = (segment as f32 / segments as f32, ring as f32 / rings as f32);
            let (p, n) = f(u, v);
            data.vertices.push(vertex(p, n, Vec2::new(u, v)));
        }
    }
    let row = segments + 1;
    for ring in 0..rings {
        for segment in 0..segments {
            let a = ring * row + segment;
            let (b, c, d) = (a + 1, a + row, a + row + 1);
            data.indices.extend([a, c, b, b, c, d]);
        }
    }
    // Drop the degenerate triangles at the poles: they cost rasteriser time and orient badly.
    let vertices = &data.vertices;
    let area = |t: &[u32]| {
        let [a, b, c] = [t[0], t[1], t[2]].map(|i| Vec3::from(vertices[i as usize].position));
        (b - a).cross(c - a).length()
    };
    data.indices = data.indices.chunks_exact(3).filter(|t| area(t) > 1e-7).flatten().copied().collect();
    finish(data)
}

/// UV sphere of radius 0.5.
pub fn uv_sphere(segments: u32, rings: u32) -> MeshData {
    parametric(segments, rings, |u, v| {
        let (theta, phi) = (u * TAU, v * PI);
        let n = Vec3::new(phi.sin() * theta.cos(), phi.cos(), phi.sin() * theta.sin());
        (n * 0.5, n)
    })
}

/// Torus in the XZ plane: ring radius 0.35, tube radius 0.15.
pub fn torus(segments: u32, sides: u32) -> MeshData {
    parametric(segments, sides, |u, v| {
        let (theta, phi) = (u * TAU, v * TAU);
        let ring = Vec3::new(theta.cos(), 0.0, theta.sin());
        let n = ring * phi.cos() + Vec3::Y * phi.sin();
        (ring * 0.35 + n * 0.15, n)
    })
}

/// Closed cylinder along Y, radius 0.5, height 1.
pub fn cylinder(segments: u32) -> MeshData {
    frustum_solid(segments, 0.5, 0.5)
}

/// Closed cone along Y, base radius 0.5, height 1.
pub fn cone(segments: u32) -> MeshData {
    frustum_solid(segments, 0.5, 0.0)
}

/// A capped truncated cone along Y from y = -0.5 (radius `bottom`) to 0.5 (radius `top`).
fn frustum_solid(segments: u32, bottom: f32, top: f32) -> MeshData {
    let mut data = MeshData::default();
    let slope = bottom - top; // the side normal tilts up by this over a height of 1
    for i in 0..segments {
        let (a0, a1) = (i as f32 / segments as f32 * TAU, (i + 1) as f32 / segments as f32 * TAU);
        let (d0, d1) = (Vec3::new(a0.cos(), 0.0, a0.sin()), Vec3::new(a1.cos(), 0.0, a1.sin()));
        let (n0, n1) = (d0 + Vec3::Y * slope, d1 + Vec3::Y * slope);
        let base = data.vertices.len() as u32;
        let (u0, u1) = (i as f32 / segments as f32, (i + 1) as f32 / segments as f32);
        data.vertices.extend([
            vertex(d0 * bottom - Vec3::Y * 0.5, n0, Vec2::new(u0, 1.0)),
            vertex(d1 * bottom - Vec3::Y * 0.5, n1, Vec2::new(u1, 1.0)),
            vertex(d1 * top + Vec3::Y * 0.5, n1, Vec2::new(u1, 0.0)),
            vertex(d0 * top + Vec3::Y * 0.5, n0, Vec2::new(u0, 0.0)),
        ]);
        data.indices.extend([base, base + 1, base + 2]);
        if top > 0.0 {
            data.indices.extend([base, base + 2, base + 3]);
        }
        for (y, radius, normal) in [(-0.5, bottom, -Vec3::Y), (0.5, top, Vec3::Y)] {
            if radius <= 0.0 {
                continue;
            }
            let cap = data.vertices.len() as u32;
            let centre = Vec3::Y * y;
            data.vertices.extend([
                vertex(centre, normal, Vec2::splat(0.5)),
                vertex(centre + d0 * radius, normal, Vec2::new(0.5 + d0.x * 0.5, 0.5 + d0.z * 0.5)),
                vertex(centre + d1 * radius, normal, Vec2::new(0.5 + d1.x * 0.5, 0.5 + d1.z * 0.5)),
            ]);
            data.indices.extend([cap, cap + 1, cap + 2]);
        }
    }
    finish(data)
}

/// Icosphere of radius 0.5 with `subdivisions` rounds of 4-way splitting, smooth normals.
pub fn icosphere(subdivisions: u32) -> MeshData {
    let (positions, triangles) = icosahedron(subdivisions);
    let vertices = positions.iter().map(|&p| vertex(p * 0.5, p, Vec2::new(p.x * 0.5 + 0.5, p.y * 0.5 + 0.5))).collect();
    finish(MeshData { vertices, indices: triangles.into_iter().flatten().collect() })
}

/// Subdivisions of the icosahedron a rock starts from.
pub(crate) const ROCK_SUBDIVISIONS: u32 = 1;

/// A low-poly rock: an icosphere pushed in and out by a hash of each vertex, flat shaded
/// (vertices are not shared, so every face keeps its own normal).
pub fn rock(seed: u32) -> MeshData {
    rock_subdivided(seed, ROCK_SUBDIVISIONS)
}

/// The rock of `seed` from an icosahedron subdivided `subdivisions` times. Subdividing keeps
/// the numbers of the vertices it had and appends the midpoints, and the displacement hashes
/// the vertex number, so a coarser rock's corners are corners of every finer one: the same
/// rock with fewer faces.
pub fn rock_subdivided(seed: u32, subdivisions: u32) -> MeshData {
    let (positions, triangles) = icosahedron(subdivisions);
    let displaced: Vec<Vec3> = positions
        .iter()
        .enumerate()
        .map(|(i, &p)| p * (0.38 + 0.14 * hash01(seed.wrapping_mul(2654435761).wrapping_add(i as u32))))
        .collect();
    let mut data = MeshData::default();
    for tri in triangles {
        let [a, b, c] = tri.map(|i| displaced[i as usize]);
        let mut normal = (b - a).cross(c - a).normalize_or_zero();
        if normal.dot(a + b + c) < 0.0 {
            normal = -normal;
        }
        let base = data.vertices.len() as u32;
        for p in [a, b, c] {
            data.vertices.push(vertex(p, normal, Vec2::new(p.x + 0.5, p.z + 0.5)));
        }
        data.indices.extend([base, base + 1, base + 2]);
    }
    finish(data)
}

/// Unit icosahedron subdivided `subdivisions` times, vertices on the unit sphere.
fn icosahedron(subdivisions: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let t = (1.0 + 5.0f32.sqrt()) / 2.0;
    let mut positions: Vec<Vec3> = [
        (-1.0, t, 0.0),
        (1.0, t, 0.0),
        (-1.0, -t, 0.0),
        (1.0, -t, 0.0),
        (0.0, -1.0, t),
        (0.0, 1.0, t),
        (0.0, -1.0, -t),
        (0.0, 1.0, -t),
        (t, 0.0, -1.0),
        (t, 0.0, 1.0),
        (-t, 0.0, -1.0),
        (-t, 0.0, 1.0),
    ]
    .iter()
    .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
    .collect();
    let mut triangles: Vec<[u32; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..subdivisions {
        let mut midpoints = std::collections::HashMap::new();
        let mut midpoint = |a: u32, b: u32, positions: &mut Vec<Vec3>| {
            *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                positions.push(((positions[a as usize] + positions[b as usize]) * 0.5).normalize());
                positions.len() as u32 - 1
            })
        };
        triangles = triangles
            .iter()
            .flat_map(|&[a, b, c]| {
                let ab = midpoint(a, b, &mut positions);
                let bc = midpoint(b, c, &mut positions);
                let ca = midpoint(c, a, &mut positions);
                [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]
            })
            .collect();
    }
    (positions, triangles)
}

/// A well-mixed hash of `x` mapped to [0, 1).
#[doc(hidden)]
pub fn hash01(x: u32) -> f32 {
    let mut h = x.wrapping_mul(747796405).wrapping_add(2891336453);
    h = ((h >> ((h >> 28) + 4)) ^ h).wrapping_mul(277803737);
    h = (h >> 22) ^ h;
    (h >> 8) as f32 / (1u32 << 24) as f32
}

/// The built-in meshes by name, as scenes refer to them.
pub const BUILTIN_NAMES: [&str; 7] = ["cube", "sphere", "icosphere", "torus", "cylinder", "cone", "rock"];

/// Builds a built-in mesh by name with the engine's default tessellation.
pub fn builtin(name: &str) -> Option<MeshData> {
    Shape::builtin(name).map(|shape| shape.mesh())
}

/// A procedural mesh with its parameters: what [`Shape::mesh`] builds, and what
/// [`Shape::coarser`] steps down from to make levels of detail.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// [`cube`].
    Cube,
    /// [`uv_sphere`].
    UvSphere {
        /// Segments around the Y axis (at least [`MIN_SEGMENTS`]).
        segments: u32,
        /// Rings from pole to pole (at least [`MIN_RINGS`]).
        rings: u32,
    },
    /// [`icosphere`].
    Icosphere {
        /// Rounds of 4-way triangle splitting of the icosahedron.
        subdivisions: u32,
    },
    /// [`torus`].
    Torus {
        /// Segments around the ring (at least [`MIN_SEGMENTS`]).
        segments: u32,
        /// Sides around the tube (at least [`MIN_SEGMENTS`]).
        sides: u32,
    },
    /// [`cylinder`].
    Cylinder {
        /// Segments around the Y axis (at least [`MIN_SEGMENTS`]).
        segments: u32,
    },
    /// [`cone`].
    Cone {
        /// Segments around the Y axis (at least [`MIN_SEGMENTS`]).
        segments: u32,
    },
    /// [`rock`], at a chosen subdivision.
    Rock {
        /// Which rock: the seed of its displacement.
        seed: u32,
        /// Subdivisions of the icosahedron it starts from.
        subdivisions: u32,
    },
}

/// Fewest segments around an axis (sphere, torus, cylinder, cone) and sides of a torus tube:
/// below 3 a round cross-section collapses to a line.
pub const MIN_SEGMENTS: u32 = 3;
/// Fewest rings of a UV sphere: 2 is a double pyramid.
pub const MIN_RINGS: u32 = 2;

impl Shape {
    /// A built-in mesh by name with the engine's default tessellation.
    pub fn builtin(name: &str) -> Option<Shape> {
        Some(match name {
            "cube" => Shape::Cube,
            "sphere" => Shape::UvSphere { segments: 16, rings: 8 },
            "icosphere" => Shape::Icosphere { subdivisions: 1 },
            "torus" => Shape::Torus { segments: 16, sides: 8 },
            "cylinder" => Shape::Cylinder { segments: 12 },
            "cone" => Shape::Cone { segments: 12 },
            "rock" => Shape::rock(7),
            _ => return None,
        })
    }

    /// The rock of `seed` at its full detail.
    pub fn rock(seed: u32) -> Shape {
        Shape::Rock { seed, subdivisions: ROCK_SUBDIVISIONS }
    }

    /// Generates the mesh.
    pub fn mesh(&self) -> MeshData {
        match *self {
            Shape::Cube => cube(),
            Shape::UvSphere { segments, rings } => uv_sphere(segments, rings),
            Shape::Icosphere { subdivisions } => icosphere(subdivisions),
            Shape::Torus { segments, sides } => torus(segments, sides),
            Shape::Cylinder { segments } => cylinder(segments),
            Shape::Cone { segments } => cone(segments),
            Shape::Rock { seed, subdivisions } => rock_subdivided(seed, subdivisions),
        }
    }

    /// The same shape with about half the triangles, or `None` where it cannot get coarser
    /// without degenerating: one of a sphere's or torus's two counts halved (the one larger
    /// against the other's usual share, two segments to a ring or side), the segments of a
    /// cylinder or cone halved, one subdivision fewer. Halving both of a sphere's counts at once
    /// would quarter its triangles: a level between (224, 112, 48 triangles, not 224 and 48)
    /// lets an object whose error budget falls there draw half the triangles, as a simplified
    /// mesh's chain, which halves too (`mesh::simplify`), does. [`Shape::lods`] halves both
    /// where a chain of at most `MAX_LODS` levels would otherwise end finer than the coarsest
    /// tessellation ([`Shape::coarser_in`]).
    pub fn coarser(&self) -> Option<Shape> {
        self.coarser_in(usize::MAX)
    }

    /// [`Shape::coarser`] with `steps` coarser levels left in the chain (this one included):
    /// where a sphere or torus needs more halvings than that to reach its coarsest
    /// tessellation, both its counts are halved (a quarter of the triangles), so a dense
    /// shape's chain still ends coarse (a 256 × 180 sphere at 64 triangles, not 2,880).
    pub fn coarser_in(&self, steps: usize) -> Option<Shape> {
        let halve = |n: u32, min: u32| (n / 2).max(min).min(n);
        // How many halvings take `n` down to `min`.
        let halvings = |mut n: u32, min: u32| {
            let mut count = 0usize;
            while halve(n, min) != n {
                n = halve(n, min);
                count += 1;
            }
            count
        };
        let needs_both = |around: u32, across: u32, min_across: u32| {
            halvings(around, MIN_SEGMENTS) + halvings(across, min_across) > steps
        };
        // The pair with the larger of the two halved (around the axis first, at two to one),
        // else the other where the first is at its least.
        let halve_pair = |around: u32, across: u32, min_across: u32| {
            if needs_both(around, across, min_across) {
                return (halve(around, MIN_SEGMENTS), halve(across, min_across));
            }
            let halved = if around >= 2 * across {
                (halve(around, MIN_SEGMENTS), across)
            } else {
                (around, halve(across, min_across))
            };
            match halved {
                pair if pair != (around, across) => pair,
                _ => (halve(around, MIN_SEGMENTS), halve(across, min_across)),
            }
        };
        let coarser = match *self {
            Shape::Cube => Shape::Cube,
            Shape::UvSphere { segments, rings } => {
                let (segments, rings) = halve_pair(segments, rings, MIN_RINGS);
                Shape::UvSphere { segments, rings }
            }
            Shape::Icosphere { subdivisions } => Shape::Icosphere { subdivisions: subdivisions.saturating_sub(1) },
            Shape::Torus { segments, sides } => {
                let (segments, sides) = halve_pair(segments, sides, MIN_SEGMENTS);
                Shape::Torus { segments, sides }
            }
            Shape::Cylinder { segments } => Shape::Cylinder { segments: halve(segments, MIN_SEGMENTS) },
            Shape::Cone { segments } => Shape::Cone { segments: halve(segments, MIN_SEGMENTS) },
            Shape::Rock { seed, subdivisions } => Shape::Rock { seed, subdivisions: subdivisions.saturating_sub(1) },
        };
        (coarser != *self).then_some(coarser)
    }

    /// The tessellations a chain of this shape is made from: this one, then at most
    /// `MAX_LODS − 1` ever coarser ones ([`Shape::coarser_in`] the levels left), as far as the
    /// shape gets coarser ([`super::lod::chain`] keeps those that save enough).
    pub fn chain_shapes(&self) -> impl Iterator<Item = Shape> {
        // Coarser levels the chain may still have, the one made next included.
        let mut steps = super::MAX_LODS - 1;
        std::iter::successors(Some(*self), move |shape| {
            let next = shape.coarser_in(steps).filter(|_| steps > 0);
            steps = steps.saturating_sub(1);
            next
        })
    }

    /// The shape's levels of detail: this tessellation, then ever coarser ones while each
    /// saves enough triangles, each with its measured error (see `mesh::lod::chain`). Built
    /// once per shape and process (a bounded cache), then copied.
    pub fn lods(&self) -> LodChain {
        static CHAINS: OnceLock<Mutex<HashMap<Shape, Arc<LodChain>>>> = OnceLock::new();
        let chains = CHAINS.get_or_init(Mutex::default);
        // A panic elsewhere while the lock was held leaves the map whole: it only ever
        // gains complete entries, or is emptied.
        let lock = || chains.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(chain) = lock().get(self) {
            return LodChain::clone(chain);
        }
        let chain = Arc::new(super::lod::chain(self.chain_shapes().map(|s| s.mesh())));
        let mut chains = lock();
        if chains.len() >= CHAIN_CACHE_SHAPES {
            chains.clear();
        }
        chains.insert(*self, Arc::clone(&chain));
        LodChain::clone(&chain)
    }
}

/// Most shapes whose chains are kept. Measuring a chain's errors costs far more than generating
/// the mesh (docs/BENCHMARKS.md § "Chain cache"), and
/// the same few shapes are asked for again and again: by the stress generator on every call,
/// by a scene that is reloaded, by the tests that parse thousands of scene files. Past this
/// many the map is emptied, so that an endless variety of shapes (rock seeds) cannot grow it
/// without bound.
pub(crate) const CHAIN_CACHE_SHAPES: usize = 64;
