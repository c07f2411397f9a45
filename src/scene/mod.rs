//! Scenes on the CPU: meshes, materials, objects, a camera, and the stress-scene generator.
//!
//! No GPU types here: `gpu_scene::prepare` turns a scene into GPU order (objects sorted by
//! batch, where a batch is (pipeline variant, mesh)).

pub mod animation;
pub mod budget;
pub mod camera;
pub mod file;
pub mod generator;
pub mod gltf_import;
pub mod placement;
pub mod sandbox;
pub mod textures;

use glam::{Quat, Vec3, Vec4};

pub use camera::Camera;
pub use generator::StressParams;

use crate::mesh::MeshArena;

/// Render pipeline variant of a material; all share one pipeline layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Variant {
    /// Back faces culled, lit.
    #[default]
    Opaque = 0,
    /// Discards fragments whose base-colour alpha is below the material's cutoff.
    Masked = 1,
    /// No back-face culling; back faces lit with the flipped normal.
    DoubleSided = 2,
    /// One colour per mesh.
    Debug = 3,
}

impl Variant {
    pub const ALL: [Variant; crate::tunables::VARIANT_COUNT as usize] =
        [Variant::Opaque, Variant::Masked, Variant::DoubleSided, Variant::Debug];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Opaque => "opaque",
            Variant::Masked => "masked",
            Variant::DoubleSided => "double-sided",
            Variant::Debug => "debug",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    pub name: String,
    /// Linear RGBA.
    pub base_color: Vec4,
    /// Layer of the scene's base-colour texture array.
    pub base_color_layer: Option<u32>,
    /// Layer of the scene's normal texture array.
    pub normal_layer: Option<u32>,
    pub variant: Variant,
    /// Masked variant: fragments with alpha below this are discarded.
    pub alpha_cutoff: f32,
}

impl Material {
    pub fn colored(name: &str, base_color: Vec4) -> Self {
        Self {
            name: name.into(),
            base_color,
            base_color_layer: None,
            normal_layer: None,
            variant: Variant::Opaque,
            alpha_cutoff: 0.5,
        }
    }
}

/// One object instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Object {
    pub translation: Vec3,
    pub rotation: Quat,
    /// Uniform scale, so normals transform with the model matrix.
    pub scale: f32,
    pub mesh: u32,
    pub material: u32,
    /// Animation class of the orbit about the world Y axis (0 = still).
    pub orbit_class: u16,
    /// Animation class of the spin about the object's own Y axis (0 = still).
    pub spin_class: u16,
}

/// RGBA8 texture layers of one texture slot; all layers share one size.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureLayers {
    pub size: u32,
    /// `size * size * 4` bytes per layer.
    pub layers: Vec<Vec<u8>>,
}

#[derive(Clone, Debug)]
pub struct Scene {
    pub name: String,
    pub meshes: MeshArena,
    pub materials: Vec<Material>,
    pub objects: Vec<Object>,
    pub camera: Camera,
    /// Whether objects move (orbit and spin classes other than 0 are honoured).
    pub animated: bool,
    pub base_color_textures: TextureLayers,
    pub normal_textures: TextureLayers,
}

impl Scene {
    /// Drops the animation: every object keeps its time-0 placement.
    pub fn set_animated(&mut self, animated: bool) {
        self.animated = animated;
    }
}
