//! The scene file as written: the serde types `toml` deserialises into. Wrong types, unknown
//! keys, unknown names of kinds and non-finite numbers (every float is a [`Finite`]) come back
//! from here with a line and column; everything that needs more than one value to check is
//! left to the builder.
//!
//! A value that may take several shapes (`true` or a class number, a number or `"auto"`) is an
//! untagged enum of its shapes plus a catch-all, converted with `try_from`: serde's own message
//! for an untagged enum that matches nothing does not say what was found.

use serde::Deserialize;
use toml::Spanned;

use super::finite::{finite_f32, Finite};
use crate::scene::generator::StressParams;
use crate::scene::gltf_import::Selector;
use crate::scene::Variant;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SceneSpec {
    #[serde(default)]
    pub(super) scene: SceneSection,
    pub(super) camera: Option<CameraSpec>,
    pub(super) sun: Option<SunSpec>,
    pub(super) environment: Option<EnvironmentSpec>,
    #[serde(default)]
    pub(super) mesh: Vec<MeshSpec>,
    #[serde(default)]
    pub(super) material: Vec<MaterialSpec>,
    #[serde(default)]
    pub(super) model: Vec<ModelSpec>,
    #[serde(default)]
    pub(super) objects: Vec<ObjectSetSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SceneSection {
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) animated: bool,
    /// A scene without objects must say so, so that a forgotten `[[objects]]` is caught.
    #[serde(default)]
    pub(super) empty: bool,
}

/// `[sun]`: the directional light. Every key is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SunSpec {
    /// The direction the light travels (need not be unit length).
    pub(super) direction: Option<Finite<[f32; 3]>>,
    /// Linear RGB, each in [0, 1000].
    pub(super) color: Option<Finite<[f32; 3]>>,
    /// The colour's multiplier, in [0, 1000].
    pub(super) illuminance: Option<Finite<f32>>,
}

/// `[environment]`: the sky's light and the frame's exposure. Every key is optional.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EnvironmentSpec {
    /// Linear RGB radiance of the sky straight up, each in [0, 1000].
    pub(super) zenith: Option<Finite<[f32; 3]>>,
    /// … at the horizon.
    pub(super) horizon: Option<Finite<[f32; 3]>>,
    /// … from below the horizon.
    pub(super) ground: Option<Finite<[f32; 3]>>,
    /// Multiplies the three, in [0, 1000].
    pub(super) intensity: Option<Finite<f32>>,
    /// Multiplies the frame's light before tone mapping, in (0, 1000].
    pub(super) exposure: Option<Finite<f32>>,
    pub(super) tone_mapping: Option<ToneMappingSpec>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(super) enum ToneMappingSpec {
    Neutral,
    None,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CameraSpec {
    #[serde(default)]
    pub(super) auto: bool,
    pub(super) position: Option<Finite<[f32; 3]>>,
    pub(super) target: Option<Finite<[f32; 3]>>,
    pub(super) up: Option<Finite<[f32; 3]>>,
    pub(super) fov_y_degrees: Option<Finite<f32>>,
    pub(super) near: Option<Finite<f32>>,
    pub(super) far: Option<Finite<f32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MeshSpec {
    pub(super) name: Spanned<String>,
    pub(super) procedural: Option<Procedural>,
    pub(super) gltf: Option<Spanned<String>>,
    /// Which mesh of the glTF file (name or index); the first when left out.
    pub(super) mesh: Option<SelectorSpec>,
    pub(super) segments: Option<i64>,
    pub(super) rings: Option<i64>,
    pub(super) sides: Option<i64>,
    pub(super) subdivisions: Option<i64>,
    pub(super) seed: Option<u32>,
    /// Per-axis scale baked into the vertices (objects themselves scale uniformly).
    pub(super) scale: Option<Finite<[f32; 3]>>,
    /// Translation baked into the vertices, after `scale`.
    pub(super) offset: Option<Finite<[f32; 3]>>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(super) enum Procedural {
    Cube,
    Sphere,
    Icosphere,
    Torus,
    Cylinder,
    Cone,
    Rock,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct MaterialSpec {
    pub(super) name: Spanned<String>,
    pub(super) base_color: Option<Finite<Vec<f32>>>,
    pub(super) texture: Option<TextureKind>,
    pub(super) normal_texture: Option<NormalTextureKind>,
    pub(super) variant: Option<VariantSpec>,
    /// Blend variant: draw back faces too.
    pub(super) double_sided: Option<bool>,
    pub(super) alpha_cutoff: Option<Finite<f32>>,
    /// 0 a dielectric to 1 a metal.
    pub(super) metallic: Option<Finite<f32>>,
    /// Perceptual roughness, 0 a mirror to 1.
    pub(super) roughness: Option<Finite<f32>>,
    /// Linear RGB light emitted, each in [0, 1000].
    pub(super) emissive: Option<Finite<[f32; 3]>>,
    /// Multiplies `emissive`, in [0, 1000].
    pub(super) emissive_strength: Option<Finite<f32>>,
    /// Drawn in its base colour with no light.
    pub(super) unlit: Option<bool>,
    pub(super) gltf: Option<Spanned<String>>,
    /// Which material of the glTF file (name or index); the first when left out.
    pub(super) material: Option<SelectorSpec>,
}

/// A `[[model]]`: every node of one scene of a glTF file, placed as one prefab.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ModelSpec {
    pub(super) name: Spanned<String>,
    pub(super) gltf: Spanned<String>,
    /// Which scene of the file (name or index); the file's default scene, else its first.
    pub(super) scene: Option<SelectorSpec>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(super) enum TextureKind {
    Lattice,
    Checker,
    Noise,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(super) enum NormalTextureKind {
    Bumps,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case")]
pub(super) enum VariantSpec {
    Opaque,
    Masked,
    DoubleSided,
    Debug,
    Blend,
}

impl From<VariantSpec> for Variant {
    fn from(spec: VariantSpec) -> Self {
        match spec {
            VariantSpec::Opaque => Variant::Opaque,
            VariantSpec::Masked => Variant::Masked,
            VariantSpec::DoubleSided => Variant::DoubleSided,
            VariantSpec::Debug => Variant::Debug,
            VariantSpec::Blend => Variant::Blend,
        }
    }
}

/// One `[[objects]]` set: exactly one of the placement kinds, plus its animation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ObjectSetSpec {
    pub(super) animation: Option<AnimationSpec>,
    pub(super) transforms: Option<Vec<TransformSpec>>,
    pub(super) grid: Option<GridSpec>,
    pub(super) random: Option<RandomSpec>,
    pub(super) rings: Option<RingsSpec>,
    pub(super) stress: Option<StressSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnimationSpec {
    #[serde(default)]
    pub(super) orbit: ClassSpec,
    #[serde(default)]
    pub(super) spin: ClassSpec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TransformSpec {
    /// A mesh and a material, or a model.
    pub(super) mesh: Option<Spanned<String>>,
    pub(super) material: Option<Spanned<String>>,
    pub(super) model: Option<Spanned<String>>,
    pub(super) position: Finite<[f32; 3]>,
    pub(super) rotation_degrees: Option<Finite<[f32; 3]>>,
    /// x, y, z, w; normalised on load.
    pub(super) quaternion: Option<Finite<[f32; 4]>>,
    pub(super) scale: Option<Finite<f32>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GridSpec {
    pub(super) counts: [i64; 3],
    pub(super) spacing: Finite<[f32; 3]>,
    #[serde(default)]
    pub(super) center: Finite<[f32; 3]>,
    /// Meshes and materials to draw from, or models (`model` for one).
    #[serde(default)]
    pub(super) meshes: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) materials: Vec<Spanned<String>>,
    pub(super) model: Option<Spanned<String>>,
    /// `None` where the key is absent (`models = []` is an error, not "no models").
    pub(super) models: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    pub(super) seed: u64,
    pub(super) scale: Option<ScaleSpec>,
    pub(super) rotation_degrees: Option<Finite<[f32; 3]>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RandomSpec {
    pub(super) count: i64,
    #[serde(default)]
    pub(super) seed: u64,
    pub(super) half_extent: Option<ExtentSpec>,
    #[serde(default)]
    pub(super) center: Finite<[f32; 3]>,
    /// Meshes and materials to draw from, or models (`model` for one).
    #[serde(default)]
    pub(super) meshes: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) materials: Vec<Spanned<String>>,
    pub(super) model: Option<Spanned<String>>,
    /// `None` where the key is absent (`models = []` is an error, not "no models").
    pub(super) models: Option<Vec<Spanned<String>>>,
    pub(super) scale: Option<ScaleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RingsSpec {
    pub(super) count: i64,
    #[serde(default)]
    pub(super) seed: u64,
    #[serde(default)]
    pub(super) center: Finite<[f32; 3]>,
    /// Inner and outer radius.
    pub(super) radius: Finite<[f32; 2]>,
    #[serde(default)]
    pub(super) thickness: Finite<f32>,
    /// Meshes and materials to draw from, or models (`model` for one).
    #[serde(default)]
    pub(super) meshes: Vec<Spanned<String>>,
    #[serde(default)]
    pub(super) materials: Vec<Spanned<String>>,
    pub(super) model: Option<Spanned<String>>,
    /// `None` where the key is absent (`models = []` is an error, not "no models").
    pub(super) models: Option<Vec<Spanned<String>>>,
    pub(super) scale: Option<ScaleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StressSpec {
    pub(super) count: i64,
    #[serde(default = "default_stress_seed")]
    pub(super) seed: u64,
}

fn default_stress_seed() -> u64 {
    StressParams::default().seed
}

/// An animation class choice: `false` (still, class 0), `true` (a random moving class), a
/// class number, or an inclusive `[lo, hi]` range to draw from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(try_from = "ClassWritten")]
pub(super) enum ClassSpec {
    #[default]
    Still,
    Random,
    Fixed(i64),
    Range(i64, i64),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ClassWritten {
    Moving(bool),
    Fixed(i64),
    Range([i64; 2]),
    Other(toml::Value),
}

impl TryFrom<ClassWritten> for ClassSpec {
    type Error = String;

    fn try_from(written: ClassWritten) -> Result<Self, String> {
        match written {
            ClassWritten::Moving(false) => Ok(ClassSpec::Still),
            ClassWritten::Moving(true) => Ok(ClassSpec::Random),
            ClassWritten::Fixed(class) => Ok(ClassSpec::Fixed(class)),
            ClassWritten::Range([lo, hi]) => Ok(ClassSpec::Range(lo, hi)),
            ClassWritten::Other(found) => {
                Err(unexpected(&found, "true, false, a class number or a [lo, hi] range of classes"))
            }
        }
    }
}

/// Object scale: one number, or an inclusive `[min, max]` range drawn uniformly.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(try_from = "ScaleWritten")]
pub(super) enum ScaleSpec {
    Fixed(f32),
    Range(f32, f32),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScaleWritten {
    Fixed(f64),
    Range([f64; 2]),
    Other(toml::Value),
}

impl TryFrom<ScaleWritten> for ScaleSpec {
    type Error = String;

    fn try_from(written: ScaleWritten) -> Result<Self, String> {
        match written {
            ScaleWritten::Fixed(scale) => Ok(ScaleSpec::Fixed(finite_f32(scale)?)),
            ScaleWritten::Range([lo, hi]) => Ok(ScaleSpec::Range(finite_f32(lo)?, finite_f32(hi)?)),
            ScaleWritten::Other(found) => Err(unexpected(&found, "a number or a [min, max] range")),
        }
    }
}

/// Half the edge of a random set's box: a number or `"auto"` (the stress scene's density).
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(try_from = "ExtentWritten")]
pub(super) enum ExtentSpec {
    Auto,
    Value(f32),
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ExtentWritten {
    Value(f64),
    Other(toml::Value),
}

impl TryFrom<ExtentWritten> for ExtentSpec {
    type Error = String;

    fn try_from(written: ExtentWritten) -> Result<Self, String> {
        match written {
            ExtentWritten::Value(half) => Ok(ExtentSpec::Value(finite_f32(half)?)),
            ExtentWritten::Other(toml::Value::String(word)) if word == "auto" => Ok(ExtentSpec::Auto),
            ExtentWritten::Other(found) => Err(unexpected(&found, "a number or \"auto\"")),
        }
    }
}

/// A glTF mesh, material or scene: its name or its index in the file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(try_from = "SelectorWritten")]
pub(super) struct SelectorSpec(pub(super) Selector);

#[derive(Deserialize)]
#[serde(untagged)]
enum SelectorWritten {
    Index(usize),
    Name(String),
    Other(toml::Value),
}

impl TryFrom<SelectorWritten> for SelectorSpec {
    type Error = String;

    fn try_from(written: SelectorWritten) -> Result<Self, String> {
        match written {
            SelectorWritten::Index(index) => Ok(SelectorSpec(Selector::Index(index))),
            SelectorWritten::Name(name) => Ok(SelectorSpec(Selector::Name(name))),
            SelectorWritten::Other(found) => Err(unexpected(&found, "a name or an index (0 or more)")),
        }
    }
}

/// "expected …, found …" for a value of none of a choice's shapes.
fn unexpected(found: &toml::Value, expected: &str) -> String {
    let found = match found {
        toml::Value::Table(_) => "a table".to_string(),
        value => value.to_string(),
    };
    format!("expected {expected}, found {found}")
}
