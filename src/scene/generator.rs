//! The stress-scene generator: N objects scattered in a box (a random placement), mixed
//! meshes and materials, optionally animated, deterministic from a seed.

use glam::{Vec3, Vec4};

use super::placement::{random, ClassRange, Palette, ScaleRange};
use super::textures::{self, TEXTURE_SIZE};
use super::{Camera, Material, Scene, Texture, TextureLayers, Variant};
use crate::mesh::{procedural, MeshArena};
use crate::tunables::ANIMATION_CLASSES;

/// Parameters of a generated stress scene.
#[derive(Clone, Debug, PartialEq)]
pub struct StressParams {
    /// How many objects to scatter.
    pub objects: u32,
    /// Seed of the placement: the same parameters give the same scene.
    pub seed: u64,
    /// Whether the scene's objects orbit and spin ([`Scene::animated`]).
    pub animated: bool,
}

impl Default for StressParams {
    fn default() -> Self {
        Self { objects: 100_000, seed: 1, animated: true }
    }
}

/// Half the edge of the box the objects fill: grows with the cube root of the count so the
/// density (about one object per 3.2³ units) stays the same at every count.
pub fn half_extent(objects: u32) -> f32 {
    1.6 * (objects.max(1) as f32).cbrt()
}

/// The default camera for a box of the given half extent: outside one face, looking at the
/// centre, so it sees a good share of the objects but far from all of them. Its near and far
/// planes (0.1 and 4 × the extent + 10 for a box of at least 1) shrink with a smaller box, so
/// a tiny scene is framed as a large one is.
pub fn default_camera(half_extent: f32) -> Camera {
    let unit = half_extent.min(1.0);
    Camera {
        position: Vec3::new(0.1, 0.25, 0.9) * half_extent,
        target: Vec3::new(0.0, 0.0, -0.6) * half_extent,
        up: Vec3::Y,
        fov_y: 60f32.to_radians(),
        near: 0.1 * unit,
        far: 4.0 * half_extent + 10.0 * unit,
    }
}

/// The stress scene's blended objects: one in `GLASS_STRIDE`, or in scenes of more than
/// `GLASS_STRIDE × GLASS_OBJECTS` objects about `GLASS_OBJECTS` of them.
const GLASS_STRIDE: u32 = 16;
const GLASS_OBJECTS: u32 = 1024;

/// The built-in stress scene: every built-in procedural mesh with its levels of detail, eight
/// plain paints (rough and glossy dielectrics, two metals, one emissive), a double-sided and a
/// masked textured material, a blended glass set, and `params.objects` objects of random mesh,
/// material, scale and animation classes in a box of [`half_extent`], seen by
/// [`default_camera`].
pub fn stress_scene(params: &StressParams) -> Scene {
    let mut meshes = MeshArena::default();
    for name in procedural::BUILTIN_NAMES {
        let shape = procedural::Shape::builtin(name).expect("every builtin name has a generator");
        meshes.add_lods(name, shape.lods()).expect("procedural meshes are well-formed");
    }
    // (colour, metallic, roughness, emission as a share of the colour): rough and glossy
    // paints, two metals (gold, steel), one glowing set.
    let paints = [
        ((0.80, 0.25, 0.20), 0.0, 0.65, 0.0),
        ((0.95, 0.60, 0.15), 1.0, 0.30, 0.0),
        ((0.90, 0.85, 0.30), 0.0, 0.90, 0.0),
        ((0.35, 0.70, 0.30), 0.0, 0.45, 0.0),
        ((0.20, 0.55, 0.75), 0.0, 0.15, 0.0),
        ((0.30, 0.35, 0.80), 0.0, 0.50, 0.4),
        ((0.60, 0.35, 0.75), 0.0, 0.30, 0.0),
        ((0.85, 0.85, 0.85), 1.0, 0.20, 0.0),
    ];
    let mut materials: Vec<Material> = paints
        .iter()
        .enumerate()
        .map(|(i, &((r, g, b), metallic, roughness, glow))| Material {
            metallic,
            roughness,
            emissive: Vec3::new(r, g, b) * glow,
            ..Material::colored(&format!("paint{i}"), Vec4::new(r, g, b, 1.0))
        })
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
    let mesh_ids: Vec<u32> = (0..meshes.meshes.len() as u32).collect();
    let material_ids: Vec<u32> = (0..materials.len() as u32).collect();
    // One blended set, glossy glass: every `GLASS_STRIDE`-th object or, in large scenes, few
    // enough that there are about `GLASS_OBJECTS` of them (drawn farthest first after all
    // the rest, `passes::blend`).
    let glass = materials.len() as u32;
    materials.push(Material {
        variant: Variant::Blend,
        roughness: 0.08,
        ..Material::colored("glass", Vec4::new(0.35, 0.7, 1.0, 0.4))
    });
    let moving = ClassRange { lo: 1, hi: ANIMATION_CLASSES as u16 - 1 };
    let palette = Palette {
        meshes: &mesh_ids,
        materials: &material_ids,
        scale: ScaleRange { lo: 0.6, hi: 1.6 },
        orbit: moving,
        spin: moving,
    };
    let mut objects = Vec::with_capacity(params.objects as usize);
    let set = random::RandomBox { count: params.objects, center: Vec3::ZERO, half_extent: extent, seed: params.seed };
    random::place(&set, &palette, &mut objects);
    let stride = GLASS_STRIDE.max(params.objects / GLASS_OBJECTS) as usize;
    for object in objects.iter_mut().step_by(stride) {
        object.material = glass;
    }

    Scene {
        name: format!("stress-{}", params.objects),
        meshes,
        materials,
        objects,
        camera: default_camera(extent),
        sun: crate::scene::Sun::default(),
        environment: crate::scene::Environment::default(),
        animated: params.animated,
        base_color_textures: TextureLayers {
            layers: vec![textures::colour_texture(TEXTURE_SIZE, textures::lattice(TEXTURE_SIZE))],
        },
        normal_textures: TextureLayers { layers: vec![Texture::linear(TEXTURE_SIZE, textures::bumps(TEXTURE_SIZE))] },
        notes: Vec::new(),
    }
}
