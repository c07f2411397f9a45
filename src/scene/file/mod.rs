//! Scene files: a TOML description of meshes, materials, object sets and a camera, turned
//! into a [`Scene`]. The format is documented in `docs/SCENES.md`; `scenes/` ships examples,
//! and `scenes/default.toml` (embedded as [`DEFAULT_SCENE_TOML`]) is the built-in stress scene.
//!
//! Loading runs in stages so that each error names what the user wrote:
//! 1. `toml` deserialises the text into the [`spec`] types (syntax errors, wrong types and
//!    unknown keys come back with a line and column);
//! 2. every number is checked to be finite and to fit an `f32` (TOML allows `nan` and `inf`);
//! 3. the object total is computed from the counts alone, so an oversized scene is refused
//!    before anything is generated;
//! 4. [`build`] makes meshes, materials and texture layers, then the object sets (through
//!    [`crate::scene::placement`]), then the camera.
//!
//! Nothing here panics on any input: every failure is a [`SceneError`], whose `Display` text
//! is what the user sees.

mod build;
mod spec;
mod suggest;

use std::path::Path;

use super::gltf_import::ImportError;
use super::Scene;
use crate::mesh::MeshError;
use build::{build, Options};
use spec::SceneSpec;

pub use super::textures::TEXTURE_SIZE;
pub use suggest::edit_distance;

/// The default scene: the built-in stress scene with 100,000 objects.
pub const DEFAULT_SCENE_TOML: &str = include_str!("../../../scenes/default.toml");

/// Most objects one scene file may describe. A guard against typos like an extra zero that
/// would otherwise allocate for minutes; whether the adapter can hold the scene is checked
/// when it is uploaded.
pub const MAX_OBJECTS: u64 = 50_000_000;

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
// Stages 1 and 2: TOML to specs, every number finite.

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
