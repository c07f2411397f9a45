//! Scenes on the CPU: meshes, materials, objects, a camera, and the stress-scene generator.
//!
//! A [`Scene`] is plain data: build one in code, load one from a scene file or a glTF model
//! ([`file::load`]), or generate a stress scene ([`generator::stress_scene`]). No GPU types
//! here: the renderer uploads a scene and sorts its objects into batches of (pipeline
//! variant, mesh).
//!
//! The modules not shown here (the loaders' internals: glTF import, the file sandbox, the
//! budget checks, object placement, texture resampling) are public for the crate's own
//! binary and tests, and carry no stability promise.

#[doc(hidden)]
pub mod animation;
#[doc(hidden)]
pub mod budget;
#[doc(hidden)]
pub mod camera;
pub mod file;
pub mod generator;
#[doc(hidden)]
pub mod gltf_import;
#[doc(hidden)]
pub mod placement;
#[doc(hidden)]
pub mod resample;
#[doc(hidden)]
pub mod sandbox;
#[doc(hidden)]
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
    /// Alpha-blended over everything opaque, back to front: depth-tested without writing
    /// depth, after the last culling phase's opaque draws (`passes::blend`); never in the depth
    /// pyramid, the compute rasteriser or the shadow map. Back faces are drawn only where the
    /// material is [`Material::double_sided`].
    Blend = 4,
}

impl Variant {
    /// Every variant, in discriminant order.
    pub const ALL: [Variant; crate::tunables::VARIANT_COUNT as usize] =
        [Variant::Opaque, Variant::Masked, Variant::DoubleSided, Variant::Debug, Variant::Blend];

    /// The variant's name in reports and scene files: `opaque`, `masked`, `double-sided`,
    /// `debug`, `blend`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Opaque => "opaque",
            Variant::Masked => "masked",
            Variant::DoubleSided => "double-sided",
            Variant::Debug => "debug",
            Variant::Blend => "blend",
        }
    }
}

/// How an object's surface is shaded: a base colour (optionally textured and normal mapped)
/// and the pipeline variant that draws it. Objects name a material by its index in
/// [`Scene::materials`].
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// The material's name (from the scene file or the glTF material), for messages.
    pub name: String,
    /// Linear RGBA.
    pub base_color: Vec4,
    /// Index of its texture in [`Scene::base_color_textures`].
    pub base_color_layer: Option<u32>,
    /// Index of its texture in [`Scene::normal_textures`].
    pub normal_layer: Option<u32>,
    /// The pipeline variant that draws objects with this material.
    pub variant: Variant,
    /// Masked variant: fragments with alpha below this are discarded.
    pub alpha_cutoff: f32,
    /// Blend variant: back faces are drawn too (lit with the flipped normal). The other
    /// variants say it by their variant (`DoubleSided` draws both faces, the rest the front).
    pub double_sided: bool,
    /// Which texture coordinates the base-colour texture reads, and how they are transformed.
    pub base_color_uv: UvTransform,
    /// Which texture coordinates the normal map reads, and how they are transformed.
    pub normal_uv: UvTransform,
    /// Scale of the normal map's x and y (glTF `normalTexture.scale`): 0 flattens it.
    pub normal_scale: f32,
    /// 0 a dielectric, 1 a metal whose reflectance is the base colour (glTF
    /// `metallicFactor`).
    pub metallic: f32,
    /// Perceptual roughness, 0 a mirror to 1 fully rough (glTF `roughnessFactor`).
    pub roughness: f32,
    /// Linear RGB light the surface emits, its strength included (glTF `emissiveFactor` ×
    /// `KHR_materials_emissive_strength`), added after lighting.
    pub emissive: Vec3,
    /// `KHR_materials_unlit`: drawn in its base colour (+ emission), with no light.
    pub unlit: bool,
    /// Index of its metallic-roughness texture (B metal, G roughness, multiplying the
    /// factors) in [`Scene::normal_textures`], the linear layers.
    pub metallic_roughness_layer: Option<u32>,
    /// Which texture coordinates the metallic-roughness texture reads, and how transformed.
    pub metallic_roughness_uv: UvTransform,
    /// Index of its occlusion texture (R) in [`Scene::normal_textures`].
    pub occlusion_layer: Option<u32>,
    /// Which texture coordinates the occlusion texture reads, and how transformed.
    pub occlusion_uv: UvTransform,
    /// How much the occlusion texture darkens the environment's light: 0 not at all, 1 fully.
    pub occlusion_strength: f32,
    /// Index of its emissive texture (multiplying `emissive`) in [`Scene::base_color_textures`],
    /// the sRGB layers.
    pub emissive_layer: Option<u32>,
    /// Which texture coordinates the emissive texture reads, and how transformed.
    pub emissive_uv: UvTransform,
}

impl Material {
    /// An opaque, untextured dielectric of one linear RGBA colour (roughness 0.5, no
    /// emission, alpha cutoff 0.5, normal scale 1, default texture coordinates).
    pub fn colored(name: &str, base_color: Vec4) -> Self {
        Self {
            name: name.into(),
            base_color,
            base_color_layer: None,
            normal_layer: None,
            variant: Variant::Opaque,
            alpha_cutoff: 0.5,
            double_sided: false,
            base_color_uv: UvTransform::default(),
            normal_uv: UvTransform::default(),
            normal_scale: 1.0,
            metallic: 0.0,
            roughness: 0.5,
            emissive: Vec3::ZERO,
            unlit: false,
            metallic_roughness_layer: None,
            metallic_roughness_uv: UvTransform::default(),
            occlusion_layer: None,
            occlusion_uv: UvTransform::default(),
            occlusion_strength: 1.0,
            emissive_layer: None,
            emissive_uv: UvTransform::default(),
        }
    }

    /// Its textures, each with the coordinates it reads: base colour, normal map,
    /// metallic-roughness, occlusion, emission (those it has).
    pub fn textures(&self) -> impl Iterator<Item = (u32, UvTransform)> + '_ {
        [
            (self.base_color_layer, self.base_color_uv),
            (self.normal_layer, self.normal_uv),
            (self.metallic_roughness_layer, self.metallic_roughness_uv),
            (self.occlusion_layer, self.occlusion_uv),
            (self.emissive_layer, self.emissive_uv),
        ]
        .into_iter()
        .filter_map(|(layer, uv)| Some((layer?, uv)))
    }

    /// The material's main texture-coordinate set: its first texture's (base colour, normal
    /// map, metallic-roughness, occlusion, emission), 0 without any: the set the draw shader
    /// takes derivatives of.
    pub fn main_uv_set(&self) -> u32 {
        self.textures().next().map_or(0, |(_, uv)| uv.set)
    }

    /// Whether any of its textures reads another coordinate set than the main one.
    pub fn textures_on_other_set(&self) -> bool {
        let main = self.main_uv_set();
        self.textures().any(|(_, uv)| uv.set != main)
    }
}

/// How a material's texture reads texture coordinates: the set (`TEXCOORD_0` or `_1`) and the
/// `KHR_texture_transform` applied to it: `uv' = offset + R(rotation) · (scale ⊙ uv)`, where
/// `R` turns the coordinates counter-clockwise in the texture's own axes (v pointing down), as
/// the extension's specification defines it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UvTransform {
    /// The texture-coordinate set read: 0 for `TEXCOORD_0` ([`Vertex::uv`]), 1 for
    /// `TEXCOORD_1` ([`Vertex::uv1`]).
    ///
    /// [`Vertex::uv`]: crate::mesh::Vertex::uv
    /// [`Vertex::uv1`]: crate::mesh::Vertex::uv1
    pub set: u32,
    /// Added after rotating and scaling.
    pub offset: Vec2,
    /// Radians, counter-clockwise in the texture's axes.
    pub rotation: f32,
    /// Per-axis scale, applied first.
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
    /// World-space position of the object's origin (at time 0 when it is animated).
    pub translation: Vec3,
    /// Orientation (a unit quaternion), applied after the scale.
    pub rotation: Quat,
    /// Uniform scale, so normals transform with the model matrix.
    pub scale: f32,
    /// The mesh drawn: a mesh id of [`Scene::meshes`], as [`MeshArena::add`] returns it.
    pub mesh: u32,
    /// The material: an index into [`Scene::materials`].
    pub material: u32,
    /// Animation class of the orbit about the world Y axis (0 = still; classes 0 to 15, odd
    /// and even ones turning opposite ways, faster as the class grows). Honoured only when
    /// [`Scene::animated`] is set.
    pub orbit_class: u16,
    /// Animation class of the spin about the object's own Y axis (0 = still; classes 0 to 15,
    /// faster as the class grows). Honoured only when [`Scene::animated`] is set.
    pub spin_class: u16,
}

/// How a texture's bytes encode its values: base colour as sRGB (the GPU decodes it to
/// linear when sampling), data (normal maps) as linear.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum TextureEncoding {
    /// The bytes are the values: data such as normal maps.
    #[default]
    Linear,
    /// RGB is sRGB-encoded, alpha linear: base-colour textures.
    Srgb,
}

/// What a texture coordinate outside [0, 1] reads, per axis (glTF's `wrapS` / `wrapT`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Wrap {
    /// The texture tiles (glTF `REPEAT`).
    #[default]
    Repeat = 0,
    /// Coordinates are clamped to the edge texels (glTF `CLAMP_TO_EDGE`).
    ClampToEdge = 1,
    /// The texture tiles, every other tile mirrored (glTF `MIRRORED_REPEAT`).
    MirroredRepeat = 2,
}

/// One texture as materials sample it: a square RGBA8 image whose edge is a power of two
/// (one of the engine's texture size classes, which upload checks), its encoding and how it
/// wraps. Only level 0 is kept; the mip chain is made at upload.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Texture {
    /// Edge in texels: a power of two.
    pub size: u32,
    /// How the bytes encode values: [`TextureEncoding::Srgb`] for base colour,
    /// [`TextureEncoding::Linear`] for normal maps (upload refuses the other).
    pub encoding: TextureEncoding,
    /// (u, v).
    pub wrap: [Wrap; 2],
    /// (u, v): the layer holds 2^k copies of the image side by side along each axis. A
    /// non-square image keeps its aspect (rounded to a power of two) this way instead of being
    /// stretched to the square: its shorter axis is tiled, and the shaders scale that
    /// coordinate by 2^-k after wrapping it (`wrapped_uv` in `shaders/shared/surface.wgsl`), so
    /// a repeating texture still filters across its edges and the mip level follows the
    /// image's own texels. 0 for a square image.
    pub tiles_log2: [u32; 2],
    /// `size * size * 4` bytes, shared by the texture's clones (a load's image cache and the
    /// layers made from one image hold one copy).
    pub rgba: std::sync::Arc<[u8]>,
}

impl Texture {
    /// A linear texture that repeats.
    pub fn linear(size: u32, rgba: Vec<u8>) -> Self {
        Self { size, encoding: TextureEncoding::Linear, wrap: [Wrap::Repeat; 2], tiles_log2: [0; 2], rgba: rgba.into() }
    }
}

/// The textures of one role (base colour or normal); a material names one by its index. At
/// upload each goes to the texture array of its size and encoding.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextureLayers {
    /// The textures, in the order materials index them.
    pub layers: Vec<Texture>,
}

/// A whole scene on the CPU: meshes, materials, textures, objects and a starting camera.
/// What the renderer uploads; objects refer to meshes and materials by index, and upload
/// refuses a reference out of range.
#[derive(Clone, Debug)]
pub struct Scene {
    /// A name for reports (a scene file's `[scene] name`, or else its file name).
    pub name: String,
    /// Every mesh, packed; [`Object::mesh`] indexes its meshes.
    pub meshes: MeshArena,
    /// Every material; [`Object::material`] indexes them.
    pub materials: Vec<Material>,
    /// The object instances, in no particular order.
    pub objects: Vec<Object>,
    /// The camera the scene starts with.
    pub camera: Camera,
    /// The directional light that lights the scene and casts its shadows.
    pub sun: Sun,
    /// The sky's light and how the frame is exposed and tone mapped.
    pub environment: Environment,
    /// Whether objects move (orbit and spin classes other than 0 are honoured).
    pub animated: bool,
    /// Base-colour textures (sRGB), indexed by [`Material::base_color_layer`].
    pub base_color_textures: TextureLayers,
    /// Normal maps (linear), indexed by [`Material::normal_layer`].
    pub normal_textures: TextureLayers,
    /// What loading left out or drew differently, one line per cause (a glTF file's skins,
    /// vertex colours, unsupported extensions…), for the caller to show: the command line
    /// prints each as a warning. Empty for scenes built in code.
    pub notes: Vec<String>,
}

/// The scene's directional light (a scene file's `[sun]` section): where it shines from, its
/// colour and its strength. It lights every surface through the metallic-roughness BRDF
/// (`shaders/shared/lighting.wgsl`; the [`Environment`] gives the rest of the light) and casts
/// the shadows of the cascaded shadow maps (`frame::shadows`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sun {
    /// The direction the sunlight travels, in world space (unit length; downward for a sun
    /// above the scene).
    pub direction: Vec3,
    /// Linear RGB colour of the light.
    pub color: Vec3,
    /// Strength: the colour is multiplied by it (1 lights a white matte surface facing the
    /// sun to radiance 1).
    pub illuminance: f32,
}

impl Sun {
    /// The sun of a scene that names none: high in the sky behind the viewer's left shoulder
    /// (the light every scene had before scenes could name one), white, strength 1.
    /// (Not unit length: [`Sun::along`] normalises it.)
    pub const DEFAULT_DIRECTION: Vec3 = Vec3::new(-0.4, -0.8, -0.45);

    /// A white sun of strength 1 shining along `direction` (normalised; the default direction
    /// where it is zero or not finite).
    pub fn along(direction: Vec3) -> Self {
        let direction = direction.try_normalize().unwrap_or_else(|| Self::DEFAULT_DIRECTION.normalize());
        Self { direction, color: Vec3::ONE, illuminance: 1.0 }
    }

    /// The unit vector from a surface towards the sun.
    pub fn towards(&self) -> Vec3 {
        -self.direction
    }
}

impl Default for Sun {
    fn default() -> Self {
        Self::along(Self::DEFAULT_DIRECTION)
    }
}

/// The light that comes from everywhere (a scene file's `[environment]` section): a sky whose
/// radiance blends from `horizon` up to `zenith` and down to `ground`, prefiltered into the
/// image-based light every surface reflects (`passes::environment`), and how the frame's light
/// is brought to the display.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Environment {
    /// Linear RGB radiance straight up.
    pub zenith: Vec3,
    /// Linear RGB radiance at the horizon.
    pub horizon: Vec3,
    /// Linear RGB radiance from below the horizon.
    pub ground: Vec3,
    /// Multiplies all three.
    pub intensity: f32,
    /// Multiplies the frame's light before tone mapping.
    pub exposure: f32,
    /// The tone mapper between scene light and the target.
    pub tone_mapping: ToneMapping,
}

/// How scene light becomes display light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToneMapping {
    /// Khronos PBR Neutral: colours below about 0.76 as they are, brighter ones compressed.
    #[default]
    Neutral = 1,
    /// None: light above 1 is clipped by the target.
    None = 0,
}

impl Environment {
    /// A sky of one radiance in every direction (`intensity` 1), not tone mapped: the white
    /// furnace of the lighting tests when `color` is white.
    pub fn uniform(color: Vec3) -> Self {
        Self {
            zenith: color,
            horizon: color,
            ground: color,
            intensity: 1.0,
            exposure: 1.0,
            tone_mapping: ToneMapping::None,
        }
    }
}

impl Default for Environment {
    /// A pale blue sky over a dim brown ground, bright enough that a white matte surface facing
    /// up in the shade reflects about a third of what the default sun gives it.
    fn default() -> Self {
        Self {
            zenith: Vec3::new(0.20, 0.30, 0.48),
            horizon: Vec3::new(0.42, 0.45, 0.50),
            ground: Vec3::new(0.16, 0.14, 0.12),
            intensity: 1.0,
            exposure: 1.0,
            tone_mapping: ToneMapping::Neutral,
        }
    }
}

impl Scene {
    /// Sets [`Scene::animated`]: with `false` every object keeps its time-0 placement.
    pub fn set_animated(&mut self, animated: bool) {
        self.animated = animated;
    }
}
