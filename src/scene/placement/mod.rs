//! Placement generators: where the objects of one set go, and which mesh, material, scale and
//! animation classes each one draws. One module per kind of set ([`transforms`], [`grid`],
//! [`random`], [`rings`]); scene files use all four and the stress scene is a [`random`] set.
//! A set fills each placement through [`Fill`]: with one object ([`Palette`]: a mesh and a
//! material) or with every part of a model ([`prefab::PrefabPalette`]).
//!
//! Every generator is deterministic from its seed, and the order in which an object draws its
//! numbers is part of the output: changing it moves every object of every shipped scene. A
//! draw whose range holds one value is skipped, so a fixed scale or a single mesh consumes
//! nothing from the generator.
//!
//! Generators take checked values (positive counts and scales, ids in range): turning a scene
//! file's spec into them, and refusing what is wrong, is the scene file's job.

pub mod grid;
pub mod prefab;
pub mod random;
pub mod rings;
pub mod transforms;

use glam::{Quat, Vec3};

use super::Object;

/// SplitMix64: tiny, fast and good enough to scatter objects reproducibly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }

    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }
}

/// Inclusive range of uniform object scales: `0 < lo <= hi`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScaleRange {
    pub lo: f32,
    pub hi: f32,
}

impl ScaleRange {
    pub fn fixed(scale: f32) -> Self {
        Self { lo: scale, hi: scale }
    }

    pub fn draw(self, rng: &mut Rng) -> f32 {
        if self.lo == self.hi {
            self.lo
        } else {
            rng.range(self.lo, self.hi)
        }
    }
}

/// Inclusive range of animation classes to draw from; [`ClassRange::STILL`] is class 0 only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassRange {
    pub lo: u16,
    pub hi: u16,
}

impl ClassRange {
    pub const STILL: ClassRange = ClassRange { lo: 0, hi: 0 };

    pub fn draw(self, rng: &mut Rng) -> u16 {
        if self.lo == self.hi {
            self.lo
        } else {
            self.lo + rng.below((self.hi - self.lo + 1) as u32) as u16
        }
    }
}

/// What each object of a generated set draws after its position and rotation.
#[derive(Clone, Copy, Debug)]
pub struct Palette<'a> {
    /// Mesh ids to pick from, uniformly; not empty.
    pub meshes: &'a [u32],
    /// Material ids to pick from, uniformly; not empty.
    pub materials: &'a [u32],
    pub scale: ScaleRange,
    pub orbit: ClassRange,
    pub spin: ClassRange,
}

/// What a generated set puts at each placement it draws.
pub trait Fill {
    /// Appends the object(s) for one placement, drawing what they need from `rng`.
    fn fill(&self, rng: &mut Rng, translation: Vec3, rotation: Quat, objects: &mut Vec<Object>);
}

impl Fill for Palette<'_> {
    /// One object, drawing its scale, mesh, material, orbit and spin (in that order).
    fn fill(&self, rng: &mut Rng, translation: Vec3, rotation: Quat, objects: &mut Vec<Object>) {
        objects.push(Object {
            translation,
            rotation,
            scale: self.scale.draw(rng),
            mesh: pick(rng, self.meshes),
            material: pick(rng, self.materials),
            orbit_class: self.orbit.draw(rng),
            spin_class: self.spin.draw(rng),
        });
    }
}

fn pick(rng: &mut Rng, ids: &[u32]) -> u32 {
    if ids.len() == 1 {
        ids[0]
    } else {
        ids[rng.below(ids.len() as u32) as usize]
    }
}

/// Uniform in the cube [-1, 1)³.
pub fn unit_cube(rng: &mut Rng) -> Vec3 {
    Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))
}

/// A random axis (from the cube, not the sphere) and a uniform angle.
pub fn random_rotation(rng: &mut Rng) -> Quat {
    let axis = unit_cube(rng).normalize_or(Vec3::Y);
    Quat::from_axis_angle(axis, rng.range(0.0, std::f32::consts::TAU))
}

/// Rotation about X, then Y, then Z (world axes), in degrees.
pub fn euler_degrees([x, y, z]: [f32; 3]) -> Quat {
    Quat::from_rotation_z(z.to_radians())
        * Quat::from_rotation_y(y.to_radians())
        * Quat::from_rotation_x(x.to_radians())
}
