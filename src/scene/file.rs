//! Scene files: a TOML description of meshes, materials, object sets and a camera, turned
//! into a [`Scene`]. The format is documented in `docs/SCENES.md`; `scenes/` ships examples,
//! and `scenes/default.toml` (embedded as [`DEFAULT_SCENE_TOML`]) is the built-in stress scene.
//!
//! Loading runs in stages so that each error names what the user wrote:
//! 1. `toml` deserialises the text into the raw `*Spec` structs below (syntax errors, wrong
//!    types and unknown keys come back with a line and column);
//! 2. every number is checked to be finite and to fit an `f32` (TOML allows `nan` and `inf`);
//! 3. the object total is computed from the counts alone, so an oversized scene is refused
//!    before anything is generated;
//! 4. meshes, materials and texture layers are built, then the object sets, then the camera.
//!
//! Nothing here panics on any input: every failure is a [`SceneError`], whose `Display` text
//! is what the user sees.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use glam::{Quat, Vec3, Vec4};
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use super::generator::{self, StressParams};
use super::placement::Rng;
use super::textures;
use super::gltf_import::{self, GltfFile, ImportError, Selector};
use super::{Camera, Material, Object, Scene, TextureLayers, Variant};
use crate::mesh::{procedural, MeshArena, MeshData, MeshError};
use crate::tunables::ANIMATION_CLASSES;

/// The default scene: the built-in stress scene with 100,000 objects.
pub const DEFAULT_SCENE_TOML: &str = include_str!("../../scenes/default.toml");

/// Most objects one scene file may describe. A guard against typos like an extra zero that
/// would otherwise allocate for minutes; whether the adapter can hold the scene is checked
/// when it is uploaded.
pub const MAX_OBJECTS: u64 = 50_000_000;

/// Edge of every texture layer (generated or imported): the layers of a slot form one
/// texture array, so they share a size. Matches the stress scene's generated textures.
pub const TEXTURE_SIZE: u32 = 64;

/// Largest `segments`, `rings` or `sides` of a procedural mesh: 256 × 256 is 66k vertices,
/// past which a "low-poly instancing" mesh is almost certainly a typo.
const MAX_TESSELLATION: i64 = 256;
/// Largest icosphere subdivision: 5 rounds make 20,480 triangles.
const MAX_SUBDIVISIONS: i64 = 5;

#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    #[error("cannot read scene file {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// Malformed TOML, a wrong type or an unknown key, with the position the parser reported.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax { file: String, line: usize, column: usize, message: String },
    #[error("{file}: {path} = {value} is not a finite 32-bit number (nan, inf and values beyond ±3.4e38 are refused)")]
    NotFinite { file: String, path: String, value: f64 },
    #[error("{at}: unknown {kind} \"{name}\" in {context}; {hint}")]
    UnknownName { at: String, kind: &'static str, name: String, context: String, hint: String },
    #[error("{file}: the scene has {} objects; the maximum per scene file is {}", thousands(*.count), thousands(*.max))]
    TooManyObjects { file: String, count: u64, max: u64 },
    #[error("{at}: glTF file \"{path}\": {source}")]
    Gltf {
        at: String,
        path: String,
        #[source]
        source: ImportError,
    },
    #[error("{at}: {source}")]
    Mesh {
        at: String,
        #[source]
        source: MeshError,
    },
    /// Anything else a well-formed file can get wrong: a value out of range, a missing or
    /// conflicting setting, a path that leaves the scene's directory.
    #[error("{at}: {message}")]
    Invalid { at: String, message: String },
}

/// Reads a scene file; glTF paths in it resolve against the file's directory.
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    let text = std::fs::read_to_string(path)
        .map_err(|source| SceneError::Read { path: path.display().to_string(), source })?;
    let base_dir = path.parent().unwrap_or(Path::new(""));
    parse(&text, &path.display().to_string(), Some(base_dir))
}

/// Parses scene-file text. `name` is the file name used in messages (and the scene's name
/// when `[scene]` gives none); with `base_dir` `None`, glTF references are an error.
pub fn parse(text: &str, name: &str, base_dir: Option<&Path>) -> Result<Scene, SceneError> {
    parse_with_limit(text, name, base_dir, MAX_OBJECTS)
}

/// [`parse`] with a smaller object limit: the property tests parse hundreds of thousands of
/// mutated files and refuse the big ones before generating them.
pub fn parse_with_limit(
    text: &str,
    name: &str,
    base_dir: Option<&Path>,
    max_objects: u64,
) -> Result<Scene, SceneError> {
    let raw = read_spec(text, name)?;
    build(raw, text, name, base_dir, Options { max_objects, override_counts: false })
}

/// The embedded default scene: the stress scene with 100,000 objects, seed 1, animated.
pub fn default_scene() -> Scene {
    parse(DEFAULT_SCENE_TOML, "default.toml", None).expect("the embedded default scene is valid (tests/scene_files.rs)")
}

/// The default scene with its generator's object count replaced (`--objects`). Neither the
/// file's 50M limit nor its no-empty-scene rule applies: the caller checks the count
/// against the adapter's limits.
pub fn default_scene_with_objects(objects: u32) -> Scene {
    let mut raw = read_spec(DEFAULT_SCENE_TOML, "default.toml").expect("the embedded default scene is valid TOML");
    for set in &mut raw.objects {
        if let Some(stress) = &mut set.stress {
            stress.count = objects as i64;
        }
    }
    build(raw, DEFAULT_SCENE_TOML, "default.toml", None, Options { max_objects: u64::MAX, override_counts: true })
        .expect("the embedded default scene is valid with any object count (tests/scene_files.rs)")
}

// ---------------------------------------------------------------------------------------
// The file as written.

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneSpec {
    #[serde(default)]
    scene: SceneSection,
    camera: Option<CameraSpec>,
    #[serde(default)]
    mesh: Vec<MeshSpec>,
    #[serde(default)]
    material: Vec<MaterialSpec>,
    #[serde(default)]
    objects: Vec<ObjectSetSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SceneSection {
    name: Option<String>,
    #[serde(default)]
    animated: bool,
    /// A scene without objects must say so, so that a forgotten `[[objects]]` is caught.
    #[serde(default)]
    empty: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CameraSpec {
    #[serde(default)]
    auto: bool,
    position: Option<[f32; 3]>,
    target: Option<[f32; 3]>,
    up: Option<[f32; 3]>,
    fov_y_degrees: Option<f32>,
    near: Option<f32>,
    far: Option<f32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MeshSpec {
    name: Spanned<String>,
    procedural: Option<Procedural>,
    gltf: Option<Spanned<String>>,
    /// Which mesh of the glTF file (name or index); the first when left out.
    mesh: Option<SelectorSpec>,
    segments: Option<i64>,
    rings: Option<i64>,
    sides: Option<i64>,
    subdivisions: Option<i64>,
    seed: Option<u32>,
    /// Per-axis scale baked into the vertices (objects themselves scale uniformly).
    scale: Option<[f32; 3]>,
    /// Translation baked into the vertices, after `scale`.
    offset: Option<[f32; 3]>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Procedural {
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
struct MaterialSpec {
    name: Spanned<String>,
    base_color: Option<Vec<f32>>,
    texture: Option<TextureKind>,
    normal_texture: Option<NormalTextureKind>,
    variant: Option<VariantSpec>,
    alpha_cutoff: Option<f32>,
    gltf: Option<Spanned<String>>,
    /// Which material of the glTF file (name or index); the first when left out.
    material: Option<SelectorSpec>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum TextureKind {
    Lattice,
    Checker,
    Noise,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum NormalTextureKind {
    Bumps,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case")]
enum VariantSpec {
    Opaque,
    Masked,
    DoubleSided,
    Debug,
}

impl From<VariantSpec> for Variant {
    fn from(spec: VariantSpec) -> Self {
        match spec {
            VariantSpec::Opaque => Variant::Opaque,
            VariantSpec::Masked => Variant::Masked,
            VariantSpec::DoubleSided => Variant::DoubleSided,
            VariantSpec::Debug => Variant::Debug,
        }
    }
}

/// One `[[objects]]` set: exactly one of the placement kinds, plus its animation.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectSetSpec {
    animation: Option<AnimationSpec>,
    transforms: Option<Vec<TransformSpec>>,
    grid: Option<GridSpec>,
    random: Option<RandomSpec>,
    rings: Option<RingsSpec>,
    stress: Option<StressSpec>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AnimationSpec {
    #[serde(default)]
    orbit: ClassSpec,
    #[serde(default)]
    spin: ClassSpec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TransformSpec {
    mesh: Spanned<String>,
    material: Spanned<String>,
    position: [f32; 3],
    rotation_degrees: Option<[f32; 3]>,
    /// x, y, z, w; normalised on load.
    quaternion: Option<[f32; 4]>,
    scale: Option<f32>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GridSpec {
    counts: [i64; 3],
    spacing: [f32; 3],
    #[serde(default)]
    center: [f32; 3],
    meshes: Vec<Spanned<String>>,
    materials: Vec<Spanned<String>>,
    #[serde(default)]
    seed: u64,
    scale: Option<ScaleSpec>,
    rotation_degrees: Option<[f32; 3]>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RandomSpec {
    count: i64,
    #[serde(default)]
    seed: u64,
    half_extent: Option<ExtentSpec>,
    #[serde(default)]
    center: [f32; 3],
    meshes: Vec<Spanned<String>>,
    materials: Vec<Spanned<String>>,
    scale: Option<ScaleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RingsSpec {
    count: i64,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    center: [f32; 3],
    /// Inner and outer radius.
    radius: [f32; 2],
    #[serde(default)]
    thickness: f32,
    meshes: Vec<Spanned<String>>,
    materials: Vec<Spanned<String>>,
    scale: Option<ScaleSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StressSpec {
    count: i64,
    #[serde(default = "default_stress_seed")]
    seed: u64,
}

fn default_stress_seed() -> u64 {
    StressParams::default().seed
}

/// An animation class choice: `false` (still, class 0), `true` (a random moving class), a
/// class number, or an inclusive `[lo, hi]` range to draw from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum ClassSpec {
    #[default]
    Still,
    Random,
    Fixed(i64),
    Range(i64, i64),
}

/// Object scale: one number, or an inclusive `[min, max]` range drawn uniformly.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ScaleSpec {
    Fixed(f32),
    Range(f32, f32),
}

/// Half the edge of a random set's box: a number or `"auto"` (the stress scene's density).
#[derive(Clone, Copy, Debug, PartialEq)]
enum ExtentSpec {
    Auto,
    Value(f32),
}

/// A glTF mesh or material: its name or its index in the file.
#[derive(Clone, Debug, PartialEq)]
struct SelectorSpec(Selector);

impl<'de> Deserialize<'de> for ClassSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ClassVisitor;
        impl<'de> Visitor<'de> for ClassVisitor {
            type Value = ClassSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("true, false, a class number or a [lo, hi] range of classes")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<ClassSpec, E> {
                Ok(if v { ClassSpec::Random } else { ClassSpec::Still })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ClassSpec, E> {
                Ok(ClassSpec::Fixed(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ClassSpec, E> {
                Ok(ClassSpec::Fixed(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ClassSpec, A::Error> {
                let (lo, hi) = pair::<i64, A>(seq, &self)?;
                Ok(ClassSpec::Range(lo, hi))
            }
        }
        deserializer.deserialize_any(ClassVisitor)
    }
}

impl<'de> Deserialize<'de> for ScaleSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ScaleVisitor;
        impl<'de> Visitor<'de> for ScaleVisitor {
            type Value = ScaleSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or a [min, max] range")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ScaleSpec, E> {
                Ok(ScaleSpec::Fixed(v as f32))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ScaleSpec, E> {
                Ok(ScaleSpec::Fixed(v as f32))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ScaleSpec, E> {
                Ok(ScaleSpec::Fixed(v as f32))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ScaleSpec, A::Error> {
                let (lo, hi) = pair::<f32, A>(seq, &self)?;
                Ok(ScaleSpec::Range(lo, hi))
            }
        }
        deserializer.deserialize_any(ScaleVisitor)
    }
}

impl<'de> Deserialize<'de> for ExtentSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ExtentVisitor;
        impl<'de> Visitor<'de> for ExtentVisitor {
            type Value = ExtentSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or \"auto\"")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<ExtentSpec, E> {
                Ok(ExtentSpec::Value(v as f32))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<ExtentSpec, E> {
                Ok(ExtentSpec::Value(v as f32))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<ExtentSpec, E> {
                Ok(ExtentSpec::Value(v as f32))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ExtentSpec, E> {
                if v == "auto" {
                    Ok(ExtentSpec::Auto)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }
        }
        deserializer.deserialize_any(ExtentVisitor)
    }
}

impl<'de> Deserialize<'de> for SelectorSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SelectorVisitor;
        impl<'de> Visitor<'de> for SelectorVisitor {
            type Value = SelectorSpec;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name or an index (0 or more)")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<SelectorSpec, E> {
                usize::try_from(v)
                    .map(|i| SelectorSpec(Selector::Index(i)))
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<SelectorSpec, E> {
                usize::try_from(v)
                    .map(|i| SelectorSpec(Selector::Index(i)))
                    .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SelectorSpec, E> {
                Ok(SelectorSpec(Selector::Name(v.to_string())))
            }
        }
        deserializer.deserialize_any(SelectorVisitor)
    }
}

/// Reads exactly two elements of a sequence.
fn pair<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(
    mut seq: A,
    expected: &dyn de::Expected,
) -> Result<(T, T), A::Error> {
    let lo = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(0, expected))?;
    let hi = seq.next_element()?.ok_or_else(|| de::Error::invalid_length(1, expected))?;
    if seq.next_element::<de::IgnoredAny>()?.is_some() {
        return Err(de::Error::invalid_length(3, expected));
    }
    Ok((lo, hi))
}

// ---------------------------------------------------------------------------------------
// Stage 1 and 2: TOML to specs, every number finite.

fn read_spec(text: &str, file: &str) -> Result<SceneSpec, SceneError> {
    let spec: SceneSpec = toml::from_str(text).map_err(|error| syntax_error(file, text, &error))?;
    let value: toml::Table = toml::from_str(text).map_err(|error| syntax_error(file, text, &error))?;
    let mut path = String::new();
    for (key, item) in &value {
        path.clear();
        path.push_str(key);
        if let Some((path, value)) = find_non_finite(item, &mut path) {
            return Err(SceneError::NotFinite { file: file.to_string(), path, value });
        }
    }
    Ok(spec)
}

fn syntax_error(file: &str, text: &str, error: &toml::de::Error) -> SceneError {
    let (line, column) = error.span().map_or((1, 1), |span| line_column(text, span.start));
    SceneError::Syntax { file: file.to_string(), line, column, message: error.message().trim().replace('\n', "; ") }
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The path of the first float that is not finite, or not finite once narrowed to `f32`.
fn find_non_finite(value: &toml::Value, path: &mut String) -> Option<(String, f64)> {
    match value {
        toml::Value::Float(v) if !v.is_finite() || !(*v as f32).is_finite() => Some((path.clone(), *v)),
        toml::Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            let found = find_non_finite(item, path);
            path.truncate(len);
            found
        }),
        toml::Value::Table(table) => table.iter().find_map(|(key, item)| {
            let len = path.len();
            path.push('.');
            path.push_str(key);
            let found = find_non_finite(item, path);
            path.truncate(len);
            found
        }),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------
// Stages 3 and 4: specs to a scene.

#[derive(Clone, Copy)]
struct Options {
    max_objects: u64,
    /// `default_scene_with_objects`: counts come from the command line, not the file.
    override_counts: bool,
}

/// Texture layers of one slot, deduplicated by content so that materials sharing a
/// generated or imported texture share its layer.
#[derive(Default)]
struct LayerSet {
    layers: Vec<Vec<u8>>,
}

impl LayerSet {
    fn insert(&mut self, rgba: Vec<u8>) -> u32 {
        match self.layers.iter().position(|layer| *layer == rgba) {
            Some(existing) => existing as u32,
            None => {
                self.layers.push(rgba);
                self.layers.len() as u32 - 1
            }
        }
    }

    fn into_layers(self) -> TextureLayers {
        TextureLayers { size: TEXTURE_SIZE, layers: self.layers }
    }
}

struct Builder<'a> {
    file: &'a str,
    text: &'a str,
    base_dir: Option<&'a Path>,
    animated: bool,
    meshes: MeshArena,
    /// Meshes the file declared, by name (the stress set's own meshes are not addressable).
    mesh_ids: HashMap<String, u32>,
    materials: Vec<Material>,
    material_ids: HashMap<String, u32>,
    base_color_layers: LayerSet,
    normal_layers: LayerSet,
    gltf_files: HashMap<PathBuf, Rc<GltfFile>>,
    /// Where the stress generator's meshes and materials start, once appended.
    stress_palette: Option<(u32, u32)>,
    objects: Vec<Object>,
    /// Half the edge of a box centred on the origin that holds every set; drives the
    /// automatic camera.
    extent: f32,
}

fn build(
    spec: SceneSpec,
    text: &str,
    file: &str,
    base_dir: Option<&Path>,
    options: Options,
) -> Result<Scene, SceneError> {
    let total = count_objects(&spec, file, options)?;
    if total > options.max_objects {
        return Err(SceneError::TooManyObjects { file: file.to_string(), count: total, max: options.max_objects });
    }
    if spec.scene.empty && total > 0 {
        return Err(invalid(file, format!("[scene] says empty = true, but the scene has {total} objects")));
    }
    if !spec.scene.empty && spec.objects.is_empty() && !options.override_counts {
        return Err(invalid(
            file,
            "the scene has no objects: add an [[objects]] set, or set empty = true under [scene] for a deliberately empty scene",
        ));
    }
    let name = match &spec.scene.name {
        Some(name) if name.trim().is_empty() => return Err(invalid(file, "[scene] name is empty")),
        Some(name) => name.clone(),
        None => scene_name_from_file(file),
    };

    let mut builder = Builder {
        file,
        text,
        base_dir,
        animated: spec.scene.animated,
        meshes: MeshArena::default(),
        mesh_ids: HashMap::new(),
        materials: Vec::new(),
        material_ids: HashMap::new(),
        base_color_layers: LayerSet::default(),
        normal_layers: LayerSet::default(),
        gltf_files: HashMap::new(),
        stress_palette: None,
        objects: Vec::with_capacity(total.min(options.max_objects) as usize),
        extent: 0.0,
    };
    for (index, mesh) in spec.mesh.iter().enumerate() {
        builder.add_mesh(index, mesh)?;
    }
    for (index, material) in spec.material.iter().enumerate() {
        builder.add_material(index, material)?;
    }
    for (index, set) in spec.objects.iter().enumerate() {
        builder.add_objects(index, set)?;
    }
    let camera = builder.camera(spec.camera.as_ref())?;

    Ok(Scene {
        name,
        meshes: builder.meshes,
        materials: builder.materials,
        objects: builder.objects,
        camera,
        animated: spec.scene.animated,
        base_color_textures: builder.base_color_layers.into_layers(),
        normal_textures: builder.normal_layers.into_layers(),
    })
}

/// The objects the file asks for, from its counts alone; also checks each set has exactly
/// one placement kind and positive counts.
fn count_objects(spec: &SceneSpec, file: &str, options: Options) -> Result<u64, SceneError> {
    let mut total = 0u64;
    for (index, set) in spec.objects.iter().enumerate() {
        let at = |what: &str| format!("objects[{index}].{what}");
        let positive = |what: &str, count: i64| -> Result<u64, SceneError> {
            if count < 1 && !(options.override_counts && count == 0) {
                return Err(invalid(file, format!("{} must be at least 1, got {count}", at(what))));
            }
            Ok(count as u64)
        };
        let kinds: Vec<&str> = [
            ("transforms", set.transforms.is_some()),
            ("grid", set.grid.is_some()),
            ("random", set.random.is_some()),
            ("rings", set.rings.is_some()),
            ("stress", set.stress.is_some()),
        ]
        .iter()
        .filter(|(_, present)| *present)
        .map(|(kind, _)| *kind)
        .collect();
        let count = match (kinds.as_slice(), set) {
            ([_], ObjectSetSpec { transforms: Some(transforms), .. }) => {
                if transforms.is_empty() {
                    return Err(invalid(file, format!("{} is empty", at("transforms"))));
                }
                transforms.len() as u64
            }
            ([_], ObjectSetSpec { grid: Some(grid), .. }) => {
                let mut product = 1u64;
                for (axis, &count) in grid.counts.iter().enumerate() {
                    product = product.saturating_mul(positive(&format!("grid.counts[{axis}]"), count)?);
                }
                product
            }
            ([_], ObjectSetSpec { random: Some(random), .. }) => positive("random.count", random.count)?,
            ([_], ObjectSetSpec { rings: Some(rings), .. }) => positive("rings.count", rings.count)?,
            ([_], ObjectSetSpec { stress: Some(stress), .. }) => positive("stress.count", stress.count)?,
            _ => {
                let found = if kinds.is_empty() { "none".to_string() } else { kinds.join(" and ") };
                return Err(invalid(
                    file,
                    format!(
                        "objects[{index}] needs exactly one of transforms, grid, random, rings or stress (found {found})"
                    ),
                ));
            }
        };
        total = total.saturating_add(count);
    }
    Ok(total)
}

fn scene_name_from_file(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .and_then(|stem| stem.to_str())
        .filter(|stem| !stem.is_empty())
        .unwrap_or("scene")
        .to_string()
}

fn invalid(at: impl Into<String>, message: impl Into<String>) -> SceneError {
    SceneError::Invalid { at: at.into(), message: message.into() }
}

impl Builder<'_> {
    /// `file:line:column` of a spanned value.
    fn at<T>(&self, spanned: &Spanned<T>) -> String {
        let (line, column) = line_column(self.text, spanned.span().start);
        format!("{}:{line}:{column}", self.file)
    }

    fn add_mesh(&mut self, index: usize, spec: &MeshSpec) -> Result<(), SceneError> {
        let at = self.at(&spec.name);
        let name = spec.name.get_ref();
        let fail = |message: String| invalid(at.clone(), format!("mesh \"{name}\": {message}"));
        if name.trim().is_empty() {
            return Err(invalid(at, format!("mesh[{index}] has an empty name")));
        }
        if self.mesh_ids.contains_key(name) {
            return Err(invalid(at, format!("mesh \"{name}\" is declared twice")));
        }
        let mut data = match (&spec.procedural, &spec.gltf) {
            (Some(kind), None) => procedural_mesh(*kind, spec).map_err(fail)?,
            (None, Some(path)) => {
                for (key, present) in [
                    ("segments", spec.segments.is_some()),
                    ("rings", spec.rings.is_some()),
                    ("sides", spec.sides.is_some()),
                    ("subdivisions", spec.subdivisions.is_some()),
                    ("seed", spec.seed.is_some()),
                ] {
                    if present {
                        return Err(fail(format!("`{key}` applies to procedural meshes, not glTF ones")));
                    }
                }
                let file = self.gltf_file(path)?;
                let selector = spec.mesh.as_ref().map(|s| &s.0);
                file.mesh(selector).map_err(|source| SceneError::Gltf {
                    at: at.clone(),
                    path: path.get_ref().clone(),
                    source,
                })?
            }
            (Some(_), Some(_)) => return Err(fail("give either procedural or gltf, not both".into())),
            (None, None) => {
                return Err(fail(format!(
                    "needs procedural = one of {} or gltf = \"path/to/model.gltf\"",
                    quoted_list(&procedural::BUILTIN_NAMES)
                )))
            }
        };
        if spec.procedural.is_some() && spec.mesh.is_some() {
            return Err(fail("`mesh` selects a mesh of a glTF file; this mesh is procedural".into()));
        }
        bake_transform(&mut data, spec.scale, spec.offset).map_err(fail)?;
        let id = self.meshes.add(name, data).map_err(|source| SceneError::Mesh { at: at.clone(), source })?;
        self.mesh_ids.insert(name.clone(), id);
        Ok(())
    }

    fn add_material(&mut self, index: usize, spec: &MaterialSpec) -> Result<(), SceneError> {
        let at = self.at(&spec.name);
        let name = spec.name.get_ref();
        let fail = |message: String| invalid(at.clone(), format!("material \"{name}\": {message}"));
        if name.trim().is_empty() {
            return Err(invalid(at, format!("material[{index}] has an empty name")));
        }
        if self.material_ids.contains_key(name) {
            return Err(invalid(at, format!("material \"{name}\" is declared twice")));
        }
        if spec.material.is_some() && spec.gltf.is_none() {
            return Err(fail("`material` selects a material of a glTF file, but no gltf is given".into()));
        }
        let imported = match &spec.gltf {
            Some(path) => {
                let file = self.gltf_file(path)?;
                let gltf_error = |source| SceneError::Gltf { at: at.clone(), path: path.get_ref().clone(), source };
                let material = file.material(spec.material.as_ref().map(|s| &s.0)).map_err(gltf_error)?;
                let texture = match (material.base_color_image, spec.texture) {
                    (Some(image), None) => Some(file.image_rgba(image, TEXTURE_SIZE).map_err(gltf_error)?),
                    _ => None,
                };
                Some((material, texture))
            }
            None => None,
        };

        let base_color = match &spec.base_color {
            Some(components) => {
                let rgba = match components.as_slice() {
                    &[r, g, b] => Vec4::new(r, g, b, 1.0),
                    &[r, g, b, a] => Vec4::new(r, g, b, a),
                    other => {
                        return Err(fail(format!(
                            "base_color needs 3 or 4 numbers (r, g, b[, a]), got {}",
                            other.len()
                        )))
                    }
                };
                if rgba.min_element() < 0.0 || rgba.w > 1.0 {
                    return Err(fail(format!(
                        "base_color {:?} must be non-negative with alpha at most 1",
                        rgba.to_array()
                    )));
                }
                rgba
            }
            None => imported.as_ref().map_or(Vec4::ONE, |(m, _)| m.base_color),
        };
        let variant = match (spec.variant, &imported) {
            (Some(variant), _) => variant.into(),
            (None, Some((m, _))) if m.masked => Variant::Masked,
            (None, Some((m, _))) if m.double_sided => Variant::DoubleSided,
            (None, _) => Variant::Opaque,
        };
        let alpha_cutoff = spec.alpha_cutoff.or(imported.as_ref().map(|(m, _)| m.alpha_cutoff)).unwrap_or(0.5);
        if !(0.0..=1.0).contains(&alpha_cutoff) {
            return Err(fail(format!("alpha_cutoff must be between 0 and 1, got {alpha_cutoff}")));
        }
        if spec.alpha_cutoff.is_some() && variant != Variant::Masked {
            return Err(fail(format!(
                "alpha_cutoff only matters for variant = \"masked\", and this material is \"{}\"",
                variant.name()
            )));
        }
        let base_color_layer = match (spec.texture, imported.and_then(|(_, texture)| texture)) {
            (Some(kind), _) => Some(self.base_color_layers.insert(procedural_texture(kind))),
            (None, Some(rgba)) => Some(self.base_color_layers.insert(rgba)),
            (None, None) => None,
        };
        let normal_layer = spec
            .normal_texture
            .map(|NormalTextureKind::Bumps| self.normal_layers.insert(textures::bumps(TEXTURE_SIZE)));
        self.material_ids.insert(name.clone(), self.materials.len() as u32);
        self.materials.push(Material {
            name: name.clone(),
            base_color,
            base_color_layer,
            normal_layer,
            variant,
            alpha_cutoff,
        });
        Ok(())
    }

    /// Opens (once per scene) a glTF file named relative to the scene file's directory.
    fn gltf_file(&mut self, path: &Spanned<String>) -> Result<Rc<GltfFile>, SceneError> {
        let at = self.at(path);
        let written = path.get_ref();
        let Some(base_dir) = self.base_dir else {
            return Err(invalid(
                at,
                format!("glTF path \"{written}\" needs a scene file on disk to resolve against (this scene was parsed from text)"),
            ));
        };
        let relative = Path::new(written);
        let absolute = relative.has_root() || relative.is_absolute() || written.contains(':');
        if written.is_empty() {
            return Err(invalid(at, "glTF path is empty"));
        }
        if absolute {
            return Err(invalid(
                at,
                format!("glTF path \"{written}\" is absolute; give it relative to the scene file's directory"),
            ));
        }
        if gltf_import::lexically_normal(relative).is_none() {
            return Err(invalid(at, format!("glTF path \"{written}\" leaves the scene file's directory")));
        }
        let full = base_dir.join(relative);
        if let Some(file) = self.gltf_files.get(&full) {
            return Ok(file.clone());
        }
        let file = Rc::new(gltf_import::open(&full, base_dir).map_err(|source| SceneError::Gltf {
            at,
            path: written.clone(),
            source,
        })?);
        self.gltf_files.insert(full, file.clone());
        Ok(file)
    }

    fn resolve(&self, kind: &'static str, name: &Spanned<String>, context: &str) -> Result<u32, SceneError> {
        let ids = if kind == "mesh" { &self.mesh_ids } else { &self.material_ids };
        if let Some(&id) = ids.get(name.get_ref()) {
            return Ok(id);
        }
        let mut known: Vec<&str> = ids.keys().map(String::as_str).collect();
        known.sort_by_key(|k| ids[*k]);
        let plural = if kind == "mesh" { "meshes" } else { "materials" };
        let hint = match closest(name.get_ref(), &known) {
            Some(close) => format!("did you mean \"{close}\"?"),
            None if known.is_empty() => format!("the scene declares no {plural}; add a [[{kind}]] section"),
            None => format!("the scene declares {}", quoted_list(&known)),
        };
        Err(SceneError::UnknownName {
            at: self.at(name),
            kind,
            name: name.get_ref().clone(),
            context: context.to_string(),
            hint,
        })
    }

    fn resolve_all(
        &self,
        kind: &'static str,
        names: &[Spanned<String>],
        context: &str,
    ) -> Result<Vec<u32>, SceneError> {
        if names.is_empty() {
            let field = if kind == "mesh" { "meshes" } else { "materials" };
            return Err(invalid(self.file, format!("{context}.{field} is empty; name at least one {kind}")));
        }
        names.iter().map(|name| self.resolve(kind, name, context)).collect()
    }

    fn add_objects(&mut self, index: usize, set: &ObjectSetSpec) -> Result<(), SceneError> {
        let context = format!("objects[{index}]");
        let animation = set.animation.as_ref();
        if set.stress.is_some() && animation.is_some() {
            return Err(invalid(
                self.file,
                format!("{context}: a stress set picks its own animation classes; remove `animation`"),
            ));
        }
        let orbit = self.class_range(animation.map_or(ClassSpec::Still, |a| a.orbit), &context, "orbit")?;
        let spin = self.class_range(animation.map_or(ClassSpec::Still, |a| a.spin), &context, "spin")?;
        let first = self.objects.len();
        if let Some(transforms) = &set.transforms {
            self.add_transforms(&context, transforms, orbit, spin, index as u64)?;
        } else if let Some(grid) = &set.grid {
            self.add_grid(&format!("{context}.grid"), grid, orbit, spin)?;
        } else if let Some(random) = &set.random {
            self.add_random(&format!("{context}.random"), random, orbit, spin)?;
        } else if let Some(rings) = &set.rings {
            if orbit != (0, 0) && (rings.center[0] != 0.0 || rings.center[2] != 0.0) {
                return Err(invalid(
                    self.file,
                    format!(
                        "{context}.rings: orbiting objects turn about the world Y axis, so an animated ring needs \
                         center x and z of 0 (got {:?})",
                        rings.center
                    ),
                ));
            }
            self.add_rings(&format!("{context}.rings"), rings, orbit, spin)?;
        } else if let Some(stress) = &set.stress {
            self.add_stress(stress);
        }
        if let Some(bad) = self.objects[first..]
            .iter()
            .position(|o| !(o.translation.is_finite() && o.rotation.is_finite() && o.scale.is_finite()))
        {
            return Err(invalid(
                self.file,
                format!("{context}: object {bad} of the set has a non-finite placement (numbers too large?)"),
            ));
        }
        Ok(())
    }

    /// Inclusive class range to draw from; (0, 0) is still.
    fn class_range(&self, spec: ClassSpec, context: &str, what: &str) -> Result<(u16, u16), SceneError> {
        let max = ANIMATION_CLASSES as i64 - 1;
        let (lo, hi) = match spec {
            ClassSpec::Still => (0, 0),
            ClassSpec::Random => (1, max),
            ClassSpec::Fixed(class) => (class, class),
            ClassSpec::Range(lo, hi) => (lo, hi),
        };
        if lo < 0 || hi > max || lo > hi {
            return Err(invalid(
                self.file,
                format!("{context}.animation.{what}: classes run from 0 (still) to {max}, got {lo}..={hi}"),
            ));
        }
        Ok((lo as u16, hi as u16))
    }

    fn add_transforms(
        &mut self,
        context: &str,
        transforms: &[TransformSpec],
        orbit: (u16, u16),
        spin: (u16, u16),
        seed: u64,
    ) -> Result<(), SceneError> {
        let mut rng = Rng::new(seed);
        for (i, t) in transforms.iter().enumerate() {
            let context = format!("{context}.transforms[{i}]");
            let mesh = self.resolve("mesh", &t.mesh, &context)?;
            let material = self.resolve("material", &t.material, &context)?;
            let rotation = match (t.rotation_degrees, t.quaternion) {
                (Some(_), Some(_)) => {
                    return Err(invalid(self.file, format!("{context}: give rotation_degrees or quaternion, not both")))
                }
                (Some(degrees), None) => euler_degrees(degrees),
                (None, Some(q)) => {
                    let q = Quat::from_array(q);
                    if q.length() < 1e-6 {
                        return Err(invalid(self.file, format!("{context}: quaternion has zero length")));
                    }
                    q.normalize()
                }
                (None, None) => Quat::IDENTITY,
            };
            let scale = t.scale.unwrap_or(1.0);
            if scale <= 0.0 {
                return Err(invalid(self.file, format!("{context}: scale must be positive, got {scale}")));
            }
            let translation = Vec3::from(t.position);
            self.extent = self.extent.max(translation.abs().max_element() + scale);
            self.objects.push(Object {
                translation,
                rotation,
                scale,
                mesh,
                material,
                orbit_class: draw_class(&mut rng, orbit),
                spin_class: draw_class(&mut rng, spin),
            });
        }
        Ok(())
    }

    fn add_grid(
        &mut self,
        context: &str,
        grid: &GridSpec,
        orbit: (u16, u16),
        spin: (u16, u16),
    ) -> Result<(), SceneError> {
        let meshes = self.resolve_all("mesh", &grid.meshes, context)?;
        let materials = self.resolve_all("material", &grid.materials, context)?;
        let scale = check_scale(self.file, context, grid.scale)?;
        let rotation = grid.rotation_degrees.map_or(Quat::IDENTITY, euler_degrees);
        let counts = grid.counts.map(|c| c.max(0) as u32);
        let spacing = Vec3::from(grid.spacing);
        let center = Vec3::from(grid.center);
        let half_span = (Vec3::new(counts[0] as f32, counts[1] as f32, counts[2] as f32) - 1.0) * 0.5;
        let mut rng = Rng::new(grid.seed);
        for x in 0..counts[0] {
            for y in 0..counts[1] {
                for z in 0..counts[2] {
                    let cell = Vec3::new(x as f32, y as f32, z as f32) - half_span;
                    self.objects.push(Object {
                        translation: center + cell * spacing,
                        rotation,
                        scale: scale.draw(&mut rng),
                        mesh: pick(&mut rng, &meshes),
                        material: pick(&mut rng, &materials),
                        orbit_class: draw_class(&mut rng, orbit),
                        spin_class: draw_class(&mut rng, spin),
                    });
                }
            }
        }
        let reach = (half_span * spacing.abs()).max_element() + scale.max();
        self.extent = self.extent.max(center.abs().max_element() + reach);
        Ok(())
    }

    fn add_random(
        &mut self,
        context: &str,
        random: &RandomSpec,
        orbit: (u16, u16),
        spin: (u16, u16),
    ) -> Result<(), SceneError> {
        let meshes = self.resolve_all("mesh", &random.meshes, context)?;
        let materials = self.resolve_all("material", &random.materials, context)?;
        let scale = check_scale(self.file, context, random.scale)?;
        let count = random.count.max(0) as u32;
        let half = match random.half_extent.unwrap_or(ExtentSpec::Auto) {
            ExtentSpec::Auto => generator::half_extent(count),
            ExtentSpec::Value(half) if half > 0.0 => half,
            ExtentSpec::Value(half) => {
                return Err(invalid(self.file, format!("{context}.half_extent must be positive, got {half}")))
            }
        };
        let center = Vec3::from(random.center);
        let mut rng = Rng::new(random.seed);
        for _ in 0..count {
            let translation = center + unit_cube(&mut rng) * half;
            let rotation = random_rotation(&mut rng);
            self.objects.push(Object {
                translation,
                rotation,
                scale: scale.draw(&mut rng),
                mesh: pick(&mut rng, &meshes),
                material: pick(&mut rng, &materials),
                orbit_class: draw_class(&mut rng, orbit),
                spin_class: draw_class(&mut rng, spin),
            });
        }
        self.extent = self.extent.max(center.abs().max_element() + half);
        Ok(())
    }

    fn add_rings(
        &mut self,
        context: &str,
        rings: &RingsSpec,
        orbit: (u16, u16),
        spin: (u16, u16),
    ) -> Result<(), SceneError> {
        let meshes = self.resolve_all("mesh", &rings.meshes, context)?;
        let materials = self.resolve_all("material", &rings.materials, context)?;
        let scale = check_scale(self.file, context, rings.scale)?;
        let [inner, outer] = rings.radius;
        if inner < 0.0 || outer <= 0.0 || inner > outer {
            return Err(invalid(
                self.file,
                format!("{context}.radius must be [inner, outer] with 0 <= inner <= outer and outer > 0, got [{inner}, {outer}]"),
            ));
        }
        if rings.thickness < 0.0 {
            return Err(invalid(
                self.file,
                format!("{context}.thickness must not be negative, got {}", rings.thickness),
            ));
        }
        let center = Vec3::from(rings.center);
        let mut rng = Rng::new(rings.seed);
        for _ in 0..rings.count.max(0) {
            // Uniform over the annulus' area, not its radius, so the inner edge is not crowded.
            let radius = rng.range(inner * inner, outer * outer).sqrt();
            let angle = rng.range(0.0, std::f32::consts::TAU);
            let height = rng.range(-0.5, 0.5) * rings.thickness;
            let translation = center + Vec3::new(radius * angle.cos(), height, radius * angle.sin());
            let rotation = random_rotation(&mut rng);
            self.objects.push(Object {
                translation,
                rotation,
                scale: scale.draw(&mut rng),
                mesh: pick(&mut rng, &meshes),
                material: pick(&mut rng, &materials),
                orbit_class: draw_class(&mut rng, orbit),
                spin_class: draw_class(&mut rng, spin),
            });
        }
        self.extent = self.extent.max(center.abs().max_element() + outer + rings.thickness * 0.5);
        Ok(())
    }

    /// The built-in stress generator. Its meshes, materials and textures are appended once
    /// per scene, after the file's own; a file holding only a stress set is therefore exactly
    /// `generator::stress_scene`.
    fn add_stress(&mut self, stress: &StressSpec) {
        let count = stress.count.max(0) as u32;
        let generated =
            generator::stress_scene(&StressParams { objects: count, seed: stress.seed, animated: self.animated });
        let (mesh_offset, material_offset) = match self.stress_palette {
            Some(offsets) => offsets,
            None => {
                let offsets = (self.meshes.meshes.len() as u32, self.materials.len() as u32);
                let arena = &generated.meshes;
                for range in &arena.meshes {
                    let vertices = range.base_vertex as usize..range.base_vertex as usize + range.vertex_count as usize;
                    let indices = range.first_index as usize..(range.first_index + range.index_count) as usize;
                    let data = MeshData {
                        vertices: arena.vertices[vertices].to_vec(),
                        indices: arena.indices[indices].to_vec(),
                    };
                    self.meshes.add(&range.name, data).expect("the stress scene's meshes are well-formed");
                }
                let base_color = remap_layers(&generated.base_color_textures, &mut self.base_color_layers);
                let normal = remap_layers(&generated.normal_textures, &mut self.normal_layers);
                for material in &generated.materials {
                    self.materials.push(Material {
                        base_color_layer: material.base_color_layer.map(|l| base_color[l as usize]),
                        normal_layer: material.normal_layer.map(|l| normal[l as usize]),
                        ..material.clone()
                    });
                }
                self.stress_palette = Some(offsets);
                offsets
            }
        };
        self.objects.extend(generated.objects.iter().map(|o| Object {
            mesh: o.mesh + mesh_offset,
            material: o.material + material_offset,
            ..*o
        }));
        self.extent = self.extent.max(generator::half_extent(count));
    }

    fn camera(&self, spec: Option<&CameraSpec>) -> Result<Camera, SceneError> {
        let automatic = generator::default_camera(self.extent.max(1.0));
        let Some(spec) = spec else { return Ok(automatic) };
        let at = |message: String| invalid(self.file, format!("[camera] {message}"));
        if spec.auto {
            let given: Vec<&str> = [
                ("position", spec.position.is_some()),
                ("target", spec.target.is_some()),
                ("up", spec.up.is_some()),
                ("fov_y_degrees", spec.fov_y_degrees.is_some()),
                ("near", spec.near.is_some()),
                ("far", spec.far.is_some()),
            ]
            .iter()
            .filter(|(_, given)| *given)
            .map(|(key, _)| *key)
            .collect();
            if !given.is_empty() {
                return Err(at(format!("auto = true places the camera itself; remove {}", given.join(", "))));
            }
            return Ok(automatic);
        }
        let (Some(position), Some(target)) = (spec.position, spec.target) else {
            return Err(at("needs position and target, or auto = true".into()));
        };
        let camera = Camera {
            position: position.into(),
            target: target.into(),
            up: spec.up.map_or(Vec3::Y, Vec3::from),
            fov_y: spec.fov_y_degrees.unwrap_or(60.0).to_radians(),
            near: spec.near.unwrap_or(automatic.near),
            far: spec.far.unwrap_or(automatic.far),
        };
        let fov = spec.fov_y_degrees.unwrap_or(60.0);
        if !(fov > 0.0 && fov < 180.0) {
            return Err(at(format!("fov_y_degrees must be between 0 and 180 (exclusive), got {fov}")));
        }
        if !(camera.near > 0.0 && camera.far > camera.near) {
            return Err(at(format!("needs 0 < near < far, got near {} and far {}", camera.near, camera.far)));
        }
        let forward = camera.target - camera.position;
        if forward.length() < 1e-6 {
            return Err(at("position and target are the same point".into()));
        }
        if forward.normalize().cross(camera.up.normalize_or_zero()).length() < 1e-4 {
            return Err(at("up is zero or parallel to the view direction".into()));
        }
        Ok(camera)
    }
}

fn remap_layers(source: &TextureLayers, into: &mut LayerSet) -> Vec<u32> {
    source
        .layers
        .iter()
        .map(|layer| {
            if source.size == TEXTURE_SIZE {
                into.insert(layer.clone())
            } else {
                into.insert(gltf_import::resize_nearest(layer, source.size, source.size, TEXTURE_SIZE))
            }
        })
        .collect()
}

fn procedural_mesh(kind: Procedural, spec: &MeshSpec) -> Result<MeshData, String> {
    let given = [
        ("segments", spec.segments),
        ("rings", spec.rings),
        ("sides", spec.sides),
        ("subdivisions", spec.subdivisions),
        ("seed", spec.seed.map(i64::from)),
    ];
    let takes: &[&str] = match kind {
        Procedural::Cube => &[],
        Procedural::Sphere => &["segments", "rings"],
        Procedural::Icosphere => &["subdivisions"],
        Procedural::Torus => &["segments", "sides"],
        Procedural::Cylinder | Procedural::Cone => &["segments"],
        Procedural::Rock => &["seed"],
    };
    let kind_name = format!("{kind:?}").to_lowercase();
    if let Some((key, _)) = given.iter().find(|(key, value)| value.is_some() && !takes.contains(key)) {
        let takes = if takes.is_empty() { "no parameters".to_string() } else { takes.join(", ") };
        return Err(format!("`{key}` does not apply to procedural = \"{kind_name}\" (it takes {takes})"));
    }
    let bounded = |key: &str, value: Option<i64>, default: i64, min: i64, max: i64| -> Result<u32, String> {
        let value = value.unwrap_or(default);
        if !(min..=max).contains(&value) {
            return Err(format!("{key} must be between {min} and {max}, got {value}"));
        }
        Ok(value as u32)
    };
    let t = MAX_TESSELLATION;
    Ok(match kind {
        Procedural::Cube => procedural::cube(),
        Procedural::Sphere => {
            procedural::uv_sphere(bounded("segments", spec.segments, 16, 3, t)?, bounded("rings", spec.rings, 8, 2, t)?)
        }
        Procedural::Icosphere => {
            procedural::icosphere(bounded("subdivisions", spec.subdivisions, 1, 0, MAX_SUBDIVISIONS)?)
        }
        Procedural::Torus => {
            procedural::torus(bounded("segments", spec.segments, 16, 3, t)?, bounded("sides", spec.sides, 8, 3, t)?)
        }
        Procedural::Cylinder => procedural::cylinder(bounded("segments", spec.segments, 12, 3, t)?),
        Procedural::Cone => procedural::cone(bounded("segments", spec.segments, 12, 3, t)?),
        Procedural::Rock => procedural::rock(spec.seed.unwrap_or(7)),
    })
}

/// Bakes a per-axis scale and an offset into a mesh. Normals follow the inverse transpose
/// (1 / scale per axis); a mirroring scale flips the winding to keep front faces in front.
fn bake_transform(data: &mut MeshData, scale: Option<[f32; 3]>, offset: Option<[f32; 3]>) -> Result<(), String> {
    let scale = Vec3::from(scale.unwrap_or([1.0; 3]));
    let offset = Vec3::from(offset.unwrap_or([0.0; 3]));
    if scale.abs().min_element() < 1e-6 {
        return Err(format!("scale {:?} has a zero component", scale.to_array()));
    }
    if scale == Vec3::ONE && offset == Vec3::ZERO {
        return Ok(());
    }
    for vertex in &mut data.vertices {
        vertex.position = (Vec3::from(vertex.position) * scale + offset).into();
        vertex.normal = (Vec3::from(vertex.normal) / scale).normalize_or_zero().into();
    }
    if scale.x * scale.y * scale.z < 0.0 {
        for tri in data.indices.chunks_exact_mut(3) {
            tri.swap(1, 2);
        }
    }
    Ok(())
}

fn procedural_texture(kind: TextureKind) -> Vec<u8> {
    let size = TEXTURE_SIZE;
    match kind {
        TextureKind::Lattice => textures::lattice(size),
        TextureKind::Checker => (0..size * size)
            .flat_map(|i| {
                let (x, y) = (i % size, i / size);
                let cell = size / 8;
                if (x / cell + y / cell).is_multiple_of(2) {
                    [255, 255, 255, 255]
                } else {
                    [150, 150, 150, 255]
                }
            })
            .collect(),
        TextureKind::Noise => (0..size * size)
            .flat_map(|i| {
                // Two octaves of hashed value noise: coarse blotches with fine grain on top.
                let (x, y) = (i % size, i / size);
                let coarse = procedural::hash01((x / 8) * 977 + (y / 8) * 131 + 17);
                let fine = procedural::hash01(x * 7919 + y * 104_729 + 3);
                let v = (150.0 + 70.0 * coarse + 35.0 * fine).min(255.0) as u8;
                [v, v, v, 255]
            })
            .collect(),
    }
}

#[derive(Clone, Copy)]
struct Scale {
    lo: f32,
    hi: f32,
}

impl Scale {
    fn draw(self, rng: &mut Rng) -> f32 {
        if self.lo == self.hi {
            self.lo
        } else {
            rng.range(self.lo, self.hi)
        }
    }

    fn max(self) -> f32 {
        self.hi
    }
}

fn check_scale(file: &str, context: &str, spec: Option<ScaleSpec>) -> Result<Scale, SceneError> {
    let (lo, hi) = match spec.unwrap_or(ScaleSpec::Fixed(1.0)) {
        ScaleSpec::Fixed(s) => (s, s),
        ScaleSpec::Range(lo, hi) => (lo, hi),
    };
    if !(lo > 0.0 && hi >= lo) {
        return Err(invalid(
            file,
            format!("{context}.scale must be positive (a range needs 0 < min <= max), got {lo}..{hi}"),
        ));
    }
    Ok(Scale { lo, hi })
}

fn pick(rng: &mut Rng, ids: &[u32]) -> u32 {
    if ids.len() == 1 {
        ids[0]
    } else {
        ids[rng.below(ids.len() as u32) as usize]
    }
}

fn draw_class(rng: &mut Rng, (lo, hi): (u16, u16)) -> u16 {
    if lo == hi {
        lo
    } else {
        lo + rng.below((hi - lo + 1) as u32) as u16
    }
}

fn unit_cube(rng: &mut Rng) -> Vec3 {
    Vec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0))
}

/// The stress generator's rotation: a random axis and angle.
fn random_rotation(rng: &mut Rng) -> Quat {
    let axis = unit_cube(rng).normalize_or(Vec3::Y);
    Quat::from_axis_angle(axis, rng.range(0.0, std::f32::consts::TAU))
}

/// Rotation about X, then Y, then Z (world axes), in degrees.
fn euler_degrees([x, y, z]: [f32; 3]) -> Quat {
    Quat::from_rotation_z(z.to_radians())
        * Quat::from_rotation_y(y.to_radians())
        * Quat::from_rotation_x(x.to_radians())
}

/// The closest name by edit distance, if it is close enough to be a likely typo.
fn closest<'n>(name: &str, known: &[&'n str]) -> Option<&'n str> {
    let limit = (name.chars().count() / 3).max(2);
    known
        .iter()
        .map(|k| (edit_distance(&name.to_lowercase(), &k.to_lowercase()), *k))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| k)
}

/// Levenshtein distance over characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            current[j + 1] = (previous[j] + usize::from(ca != cb)).min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

fn quoted_list(names: &[&str]) -> String {
    let shown: Vec<String> = names.iter().take(12).map(|n| format!("\"{n}\"")).collect();
    let more = names.len().saturating_sub(12);
    if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// 50000000 → "50,000,000".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
