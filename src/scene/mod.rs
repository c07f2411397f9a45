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

use glam::{Mat2, Quat, Vec2, Vec3, Vec4};

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
    /// Index of its texture in [`Scene::base_color_textures`].
    pub base_color_layer: Option<u32>,
    /// Index of its texture in [`Scene::normal_textures`].
    pub normal_layer: Option<u32>,
    pub variant: Variant,
    /// Masked variant: fragments with alpha below this are discarded.
    pub alpha_cutoff: f32,
    /// Which texture coordinates the base-colour texture reads, and how they are transformed.
    pub base_color_uv: UvTransform,
    /// Which texture coordinates the normal map reads, and how they are transformed.
    pub normal_uv: UvTransform,
    /// Scale of the normal map's x and y (glTF `normalTexture.scale`): 0 flattens it.
    pub normal_scale: f32,
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
            base_color_uv: UvTransform::default(),
            normal_uv: UvTransform::default(),
            normal_scale: 1.0,
        }
    }

    /// The material's main texture-coordinate set: its base-colour texture's, or without one
    /// its normal map's (the set the draw shader takes derivatives of).
    pub fn main_uv_set(&self) -> u32 {
        if self.base_color_layer.is_some() {
            self.base_color_uv.set
        } else {
            self.normal_uv.set
        }
    }

    /// Whether its normal map reads another coordinate set than the main one.
    pub fn normal_map_on_other_set(&self) -> bool {
        self.normal_layer.is_some() && self.normal_uv.set != self.main_uv_set()
    }
}

/// How a material's texture reads texture coordinates: the set (`TEXCOORD_0` or `_1`) and the
/// `KHR_texture_transform` applied to it: `uv' = offset + R(rotation) · (scale ⊙ uv)`, where
/// `R` turns the coordinates counter-clockwise in the texture's own axes (v pointing down), as
/// the extension's specification defines it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvTransform {
    pub set: u32,
    pub offset: Vec2,
    /// Radians.
    pub rotation: f32,
    pub scale: Vec2,
}

impl Default for UvTransform {
    fn default() -> Self {
        UvTransform { set: 0, offset: Vec2::ZERO, rotation: 0.0, scale: Vec2::ONE }
    }
}

impl UvTransform {
    /// The linear part (columns) and the offset: `uv' = matrix · uv + offset`.
    pub fn matrix(&self) -> (Mat2, Vec2) {
        let (sin, cos) = self.rotation.sin_cos();
        let rotation = Mat2::from_cols(Vec2::new(cos, -sin), Vec2::new(sin, cos));
        (rotation * Mat2::from_diagonal(self.scale), self.offset)
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

/// How a texture's bytes encode its values: base colour as sRGB (the GPU decodes it to
/// linear when sampling), data (normal maps) as linear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum TextureEncoding {
    #[default]
    Linear,
    Srgb,
}

/// What a texture coordinate outside [0, 1] reads, per axis (glTF's `wrapS` / `wrapT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Wrap {
    #[default]
    Repeat = 0,
    ClampToEdge = 1,
    MirroredRepeat = 2,
}

/// One texture as materials sample it: a square RGBA8 image whose edge is a power of two
/// (one of the size classes of [`textures`]), its encoding and how it wraps. Only level 0 is
/// kept; the mip chain is made at upload.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Texture {
    pub size: u32,
    pub encoding: TextureEncoding,
    /// (u, v).
    pub wrap: [Wrap; 2],
    /// `size * size * 4` bytes.
    pub rgba: Vec<u8>,
}

impl Texture {
    /// A linear texture that repeats.
    pub fn linear(size: u32, rgba: Vec<u8>) -> Self {
        Self { size, encoding: TextureEncoding::Linear, wrap: [Wrap::Repeat; 2], rgba }
    }
}

/// The textures of one role (base colour or normal); a material names one by its index. At
/// upload each goes to the texture array of its size and encoding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureLayers {
    pub layers: Vec<Texture>,
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
    /// What loading left out or drew differently, one line per cause (a glTF file's skins,
    /// vertex colours, unsupported extensions…), for the caller to show: the command line
    /// prints each as a warning. Empty for scenes built in code.
    pub notes: Vec<String>,
}

impl Scene {
    /// Drops the animation: every object keeps its time-0 placement.
    pub fn set_animated(&mut self, animated: bool) {
        self.animated = animated;
    }
}
