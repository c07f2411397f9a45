//! The stress-scene generator: N objects scattered in a box, mixed meshes and materials,
//! optionally animated, deterministic from a seed.

use glam::{Quat, Vec3, Vec4};

use super::{Camera, Material, Object, Scene, TextureLayers, Variant};
use crate::mesh::{procedural, MeshArena};
use crate::tunables::ANIMATION_CLASSES;

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

/// Parameters of a generated stress scene.
#[derive(Clone, Debug, PartialEq)]
pub struct StressParams {
    pub objects: u32,
    pub seed: u64,
    pub animated: bool,
}

impl Default for StressParams {
    fn default() -> Self {
        Self { objects: 100_000, seed: 1, animated: true }
    }
}

/// Size of the generated checker textures.
const TEXTURE_SIZE: u32 = 64;

/// Half the edge of the box the objects fill: grows with the cube root of the count so the
/// density (about one object per 3.2³ units) stays the same at every count.
pub fn half_extent(objects: u32) -> f32 {
    1.6 * (objects.max(1) as f32).cbrt()
}

/// The default camera for a box of the given half extent: outside one face, looking at the
/// centre, so it sees a good share of the objects but far from all of them.
pub fn default_camera(half_extent: f32) -> Camera {
    Camera {
        position: Vec3::new(0.1, 0.25, 0.9) * half_extent,
        target: Vec3::new(0.0, 0.0, -0.6) * half_extent,
        up: Vec3::Y,
        fov_y: 60f32.to_radians(),
        near: 0.1,
        far: 4.0 * half_extent + 10.0,
    }
}

/// The built-in stress scene.
pub fn stress_scene(params: &StressParams) -> Scene {
    let mut meshes = MeshArena::default();
    for name in procedural::BUILTIN_NAMES {
        let data = procedural::builtin(name).expect("every builtin name has a generator");
        meshes.add(name, data).expect("procedural meshes are well-formed");
    }
    let palette = [
        (0.80, 0.25, 0.20),
        (0.95, 0.60, 0.15),
        (0.90, 0.85, 0.30),
        (0.35, 0.70, 0.30),
        (0.20, 0.55, 0.75),
        (0.30, 0.35, 0.80),
        (0.60, 0.35, 0.75),
        (0.85, 0.85, 0.85),
    ];
    let mut materials: Vec<Material> = palette
        .iter()
        .enumerate()
        .map(|(i, &(r, g, b))| Material::colored(&format!("paint{i}"), Vec4::new(r, g, b, 1.0)))
        .collect();
    // A double-sided and a masked, textured material, so the default scene exercises every
    // lit variant and the texture slots.
    materials.push(Material {
        variant: Variant::DoubleSided,
        ..Material::colored("two-sided", Vec4::new(0.9, 0.5, 0.6, 1.0))
    });
    materials.push(Material {
        base_color_layer: Some(0),
        normal_layer: Some(0),
        variant: Variant::Masked,
        ..Material::colored("lattice", Vec4::new(0.7, 0.9, 1.0, 1.0))
    });

    let extent = half_extent(params.objects);
    let mut rng = Rng::new(params.seed);
    let objects = (0..params.objects)
        .map(|_| {
            let translation = Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)) * extent;
            let axis =
                Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)).normalize_or(Vec3::Y);
            let rotation = Quat::from_axis_angle(axis, rng.range(0.0, std::f32::consts::TAU));
            Object {
                translation,
                rotation,
                scale: rng.range(0.6, 1.6),
                mesh: rng.below(meshes.meshes.len() as u32),
                material: rng.below(materials.len() as u32),
                orbit_class: 1 + rng.below(ANIMATION_CLASSES - 1) as u16,
                spin_class: 1 + rng.below(ANIMATION_CLASSES - 1) as u16,
            }
        })
        .collect();

    Scene {
        name: format!("stress-{}", params.objects),
        meshes,
        materials,
        objects,
        camera: default_camera(extent),
        animated: params.animated,
        base_color_textures: TextureLayers { size: TEXTURE_SIZE, layers: vec![lattice_texture(TEXTURE_SIZE)] },
        normal_textures: TextureLayers { size: TEXTURE_SIZE, layers: vec![bump_texture(TEXTURE_SIZE)] },
    }
}

/// A white lattice with transparent holes, for the masked variant.
pub fn lattice_texture(size: u32) -> Vec<u8> {
    let cell = (size / 8).max(1);
    (0..size * size)
        .flat_map(|i| {
            let (x, y) = (i % size, i / size);
            let bar = x % cell < cell / 3 || y % cell < cell / 3;
            if bar {
                [255, 255, 255, 255]
            } else {
                [255, 255, 255, 0]
            }
        })
        .collect()
}

/// A tangent-space normal map of soft bumps.
pub fn bump_texture(size: u32) -> Vec<u8> {
    (0..size * size)
        .flat_map(|i| {
            let (x, y) = ((i % size) as f32 / size as f32, (i / size) as f32 / size as f32);
            let (dx, dy) = ((x * 25.0).sin() * 0.35, (y * 25.0).cos() * 0.35);
            let n = Vec3::new(dx, dy, 1.0).normalize();
            [(n.x * 127.5 + 127.5) as u8, (n.y * 127.5 + 127.5) as u8, (n.z * 127.5 + 127.5) as u8, 255]
        })
        .collect()
}
