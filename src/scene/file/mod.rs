//! Scene files: a TOML description of meshes, materials, object sets and a camera, turned
//! into a [`Scene`]. The format is documented in `docs/SCENES.md`; `scenes/` ships examples,
//! and `scenes/default.toml` (embedded as [`DEFAULT_SCENE_TOML`]) is the built-in stress scene.
//!
//! Loading runs in stages so that each error names what the user wrote:
//! 1. `toml` deserialises the text into the `spec` types (syntax errors, wrong types and
//!    unknown keys come back with a line and column);
//! 2. while deserialising, every number that becomes an `f32` is checked to be finite
//!    (`finite`: TOML allows `nan`, `inf` and numbers beyond `f32`'s range), so a refused
//!    number has a line and column too;
//! 3. the object total is computed from the counts alone, and every mesh's size from its
//!    parameters or glTF accessors, so a scene over its [`Budget`] is refused before anything
//!    is generated;
//! 4. `build` makes meshes, materials and texture layers, then the object sets (through
//!    `scene::placement`), then the camera, and checks the result finite.
//!
//! Every file (the scene file, its glTF files, their buffers and images) is read through one
//! sandbox rooted at the scene file's directory (and the [`LoadOptions::allow_dirs`]): a path
//! that leaves it, a file that is not a regular file, or one over the size limit is refused
//! ([`SandboxError`]). Nothing here panics on any input: every failure is a [`SceneError`],
//! whose `Display` text (with its sources, [`SceneError::chain`]) is what the user sees.
//!
//! Entry points: [`load`] and [`load_with`] read a scene file or a glTF model from disk,
//! [`parse`] and [`parse_with`] read scene-file text, and [`default_scene`] (with
//! [`default_scene_within`] and [`default_scene_with_objects`]) builds the embedded stress
//! scene.

mod build;
mod finite;
mod spec;
mod suggest;

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::de::DeTable;

use super::sandbox::Sandbox;
use super::{Camera, Scene};
use crate::mesh::MeshError;
use crate::text;
use build::{build, Options};
use glam::Vec3;
use spec::SceneSpec;

pub use super::budget::{Budget, DeviceBudget, OverBudget};
pub use super::gltf_import::ImportError;
pub use super::sandbox::SandboxError;
#[doc(hidden)]
pub use super::textures::TEXTURE_SIZE;
#[doc(hidden)]
pub use suggest::edit_distance;

/// The default scene: the built-in stress scene with 100,000 objects.
pub const DEFAULT_SCENE_TOML: &str = include_str!("../../../scenes/default.toml");

/// Most objects one scene file may describe. A guard against typos like an extra zero that
/// would otherwise allocate for minutes; whether the adapter can hold the scene is checked
/// when it is uploaded.
pub const MAX_OBJECTS: u64 = 50_000_000;

/// Why a scene could not be loaded. Every variant names where the problem is: `file` is the
/// scene file's name as given, `at` a `file:line:column` position in it (or the file alone
/// where no position applies).
#[derive(Debug, thiserror::Error)]
pub enum SceneError {
    /// The scene file, or a file it names, could not be read or may not be.
    #[error(transparent)]
    Access(#[from] SandboxError),
    /// The scene file is not UTF-8.
    #[error("scene file {file} is not UTF-8 text (byte {offset} is not)")]
    NotText {
        /// The scene file.
        file: String,
        /// Byte offset of the first byte that is not UTF-8.
        offset: usize,
    },
    /// Over the budget: too many objects, vertices, texture layers for the adapter or memory.
    #[error("{file}: {detail}")]
    Budget {
        /// The scene file.
        file: String,
        /// What is over which limit, and what in the file asks for it.
        detail: OverBudget,
    },
    /// Malformed TOML, a wrong type or an unknown key, with the position the parser reported.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The scene file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong there.
        message: String,
    },
    /// A number TOML allows but an `f32` cannot hold; `value` is the number as written.
    #[error("{file}:{line}:{column}: {path} = {value} is {}", finite::NOT_FINITE)]
    NotFinite {
        /// The scene file.
        file: String,
        /// 1-based line of the number.
        line: usize,
        /// 1-based column of the number, in characters.
        column: usize,
        /// The number's key path (`meshes[0].radius`).
        path: String,
        /// The number as written.
        value: String,
    },
    /// A reference to a mesh, material or model the file does not declare.
    #[error("{at}: unknown {kind} \"{name}\" in {context}; {hint}")]
    UnknownName {
        /// Where the reference is.
        at: String,
        /// What kind of name it is: `mesh`, `material` or `model`.
        kind: &'static str,
        /// The name as written (escaped and shortened for display).
        name: String,
        /// The section that refers to it (`objects[2]`).
        context: String,
        /// The closest declared name, or the names declared.
        hint: String,
    },
    /// The file describes more objects than a scene file may ([`MAX_OBJECTS`]).
    #[error("{file}: the scene has {} objects; the maximum per scene file is {}", text::count(*.count), text::count(*.max))]
    TooManyObjects {
        /// The scene file.
        file: String,
        /// Objects the file describes.
        count: u64,
        /// The most allowed.
        max: u64,
    },
    /// A glTF file the scene names could not be imported.
    #[error("{at}: glTF file \"{path}\"")]
    Gltf {
        /// Where the scene file names it.
        at: String,
        /// The glTF path as written.
        path: String,
        /// Why it could not be imported.
        #[source]
        source: Box<ImportError>,
    },
    /// A glTF model loaded as a scene of its own could not be read.
    #[error("{file}")]
    Model {
        /// The model file.
        file: String,
        /// Why it could not be imported.
        #[source]
        source: Box<ImportError>,
    },
    /// A mesh the file describes or imports was refused by the mesh arena.
    #[error("{at}")]
    Mesh {
        /// Where the mesh is declared.
        at: String,
        /// What is wrong with it.
        #[source]
        source: MeshError,
    },
    /// Anything else a well-formed file can get wrong: a value out of range, a missing or
    /// conflicting setting, a path that leaves the scene's directory.
    #[error("{at}: {message}")]
    Invalid {
        /// Where the setting is.
        at: String,
        /// What is wrong with it.
        message: String,
    },
}

impl SceneError {
    /// The error with its `file:line:column` position cut to `file`: for a scene made from
    /// text the user never saw (a model loaded directly), where a line number would mislead.
    fn located_at_file(self, file: &str) -> Self {
        let cut = |at: String| if at.starts_with(file) { file.to_string() } else { at };
        match self {
            SceneError::Gltf { at, path, source } => {
                // The model itself: said once, by the file name the user gave.
                if Path::new(file).file_name().is_some_and(|name| name.to_string_lossy() == path) {
                    SceneError::Model { file: file.to_string(), source }
                } else {
                    SceneError::Gltf { at: cut(at), path, source }
                }
            }
            SceneError::Mesh { at, source } => SceneError::Mesh { at: cut(at), source },
            SceneError::Invalid { at, message } => SceneError::Invalid { at: cut(at), message },
            other => other,
        }
    }

    /// The message with every source after it, `: `-separated: what a user sees.
    pub fn chain(&self) -> String {
        let mut text = self.to_string();
        let mut source = std::error::Error::source(self);
        while let Some(error) = source {
            text.push_str(": ");
            text.push_str(&error.to_string());
            source = error.source();
        }
        text
    }
}

/// What a scene may read and what it may cost.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Directories besides the scene file's own that its references may read (`--allow-dir`).
    pub allow_dirs: Vec<PathBuf>,
    /// The limits the scene must fit, checked before the work they bound.
    pub budget: Budget,
}

/// Reads a scene file with the default budget (a share of physical memory, no adapter); glTF
/// paths in it resolve against the file's directory, and may not leave it.
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    load_with(path, &LoadOptions::default())
}

/// Reads a scene file through a sandbox rooted at its directory (and `options.allow_dirs`),
/// within `options.budget`. A glTF model (`.gltf`, `.glb`) loads as a scene of its own
/// ([`load_model_with`]).
pub fn load_with(path: &Path, options: &LoadOptions) -> Result<Scene, SceneError> {
    if is_model_file(path) {
        return load_model_with(path, options);
    }
    let base_dir = path.parent().unwrap_or(Path::new(""));
    let sandbox = Sandbox::new(base_dir, &options.allow_dirs)?.with_budget(options.budget.host_bytes);
    let name = path.display().to_string();
    let (_, length) = sandbox.check(path, "scene file")?;
    options.budget.check_scene_text(length).map_err(|detail| SceneError::Budget { file: name.clone(), detail })?;
    let (_, bytes) = sandbox.read(path, "scene file")?;
    // A model under another name: TOML never starts with `{`, and a GLB starts with its magic.
    if bytes.starts_with(b"glTF") || bytes.trim_ascii_start().starts_with(b"{") {
        return load_model_with(path, options);
    }
    let text = String::from_utf8(bytes)
        .map_err(|error| SceneError::NotText { file: name.clone(), offset: error.utf8_error().valid_up_to() })?;
    let raw = read_spec(&text, &name)?;
    let options =
        Options { max_objects: MAX_OBJECTS, override_counts: false, budget: &options.budget, sandbox: Some(&sandbox) };
    build(raw, &text, &name, Some(base_dir), options)
}

/// Whether `path` names a glTF model (`.gltf` or `.glb`, a file called just `.gltf` too) rather
/// than a scene file. [`load_with`] also loads a scene path whose bytes are a glTF's as one.
pub fn is_model_file(path: &Path) -> bool {
    let name = path.file_name().map(|name| name.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    name.ends_with(".gltf") || name.ends_with(".glb")
}

/// The scene-file text that shows one glTF model: a `[[model]]` named after the file, from `gltf`
/// (a path relative to the scene file's directory), its default scene, placed exactly
/// `instances` times on a square grid `spacing` apart (once at the origin for 1), with the
/// automatic camera. A count that is not a rectangle of the grid's side is the full rows and
/// one shorter row after them, a second set, the whole centred on the origin. `multidraw
/// import` writes it; `render`, `view`, `bench` load it for a `.gltf` or `.glb` given as the
/// scene.
pub fn model_scene_text(gltf: &str, instances: u32, spacing: f64) -> String {
    let name = Path::new(gltf).file_stem().map_or("model".into(), |s| s.to_string_lossy().into_owned());
    let name = toml::Value::String(name).to_string();
    // Six decimals: a spacing of two significant digits times a half-integer, without the
    // binary fraction's tail (0.30000000000000004).
    let at = |cells: f64| (cells * spacing * 1e6).round() / 1e6;
    let grid = |columns: u32, rows: u32, center: (f64, f64)| {
        let center = if center == (0.0, 0.0) {
            String::new()
        } else {
            format!(", center = [{}, 0, {}]", at(center.0) + 0.0, at(center.1) + 0.0)
        };
        format!(
            "grid = {{ counts = [{columns}, 1, {rows}], spacing = [{spacing}, 0, {spacing}]{center}, model = {name} }}"
        )
    };
    let placement = if instances <= 1 {
        format!("transforms = [{{ model = {name}, position = [0, 0, 0] }}]")
    } else {
        let side = (instances as f64).sqrt().ceil() as u32;
        let (full_rows, rest) = (instances / side, instances % side);
        if rest == 0 {
            grid(side, full_rows, (0.0, 0.0))
        } else {
            // Rows are along z; the shorter row starts where the full ones do along x.
            let rows = f64::from(full_rows + 1);
            let full_center = (f64::from(full_rows) - rows) * 0.5;
            let last_row = f64::from(full_rows) - (rows - 1.0) * 0.5;
            let last_x = (f64::from(rest) - f64::from(side)) * 0.5;
            format!(
                "{}\n\n[[objects]]\n{}",
                grid(side, full_rows, (0.0, full_center)),
                grid(rest, 1, (last_x, last_row))
            )
        }
    };
    format!(
        "# A scene showing one glTF model (written by `multidraw import`; see docs/SCENES.md, Models).\n\
         [scene]\nname = {name}\n\n[[model]]\nname = {name}\ngltf = {}\n\n[[objects]]\n{placement}\n",
        toml::Value::String(gltf.to_string())
    )
}

/// Loads a glTF model as a scene of its own: [`model_scene_text`] with one instance, read
/// from the model's directory through the same sandbox and budget as a scene file.
pub fn load_model_with(path: &Path, options: &LoadOptions) -> Result<Scene, SceneError> {
    let base_dir = path.parent().unwrap_or(Path::new(""));
    let file_name = path.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let text = model_scene_text(&file_name, 1, 0.0);
    let name = path.display().to_string();
    let mut scene = parse_with(&text, &name, Some(base_dir), options).map_err(|error| error.located_at_file(&name))?;
    if let Some(camera) = framing_camera(&scene) {
        scene.camera = camera;
    }
    Ok(scene)
}

/// A camera that shows every object whole: looking at the centre of the box around their
/// bounding spheres from the front (+Z, glTF's front), a little from the right and above, far
/// enough for a sphere about that centre holding all of them to fit the 60° view. `None` for an empty scene or
/// bounds that do not fit in f32.
pub fn framing_camera(scene: &Scene) -> Option<Camera> {
    let spheres: Vec<(Vec3, f32)> = scene
        .objects
        .iter()
        .map(|object| {
            let bounds = scene.meshes.meshes[object.mesh as usize].bounds;
            let center = object.translation + object.rotation * (bounds.truncate() * object.scale);
            (center, bounds.w * object.scale)
        })
        .collect();
    let (lo, hi) = spheres.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &(center, radius)| {
        (lo.min(center - Vec3::splat(radius)), hi.max(center + Vec3::splat(radius)))
    });
    let center = (lo + hi) * 0.5;
    let radius = spheres.iter().map(|&(c, r)| c.distance(center) + r).fold(0.0, f32::max);
    let fov_y = 60f32.to_radians();
    let distance = radius / (fov_y * 0.5).sin();
    let camera = Camera {
        position: center + Vec3::new(0.35, 0.3, 1.0).normalize() * distance,
        target: center,
        up: Vec3::Y,
        fov_y,
        near: (distance - radius).max(distance * 1e-3) * 0.5,
        far: (distance + radius) * 2.0,
    };
    let finite = camera.position.is_finite() && camera.far.is_finite() && camera.near > 0.0;
    (finite && radius > 0.0 && camera.far > camera.near).then_some(camera)
}

/// Parses scene-file text. `name` is the file name used in messages (and the scene's name
/// when `[scene]` gives none); with `base_dir` `None`, glTF references are an error.
pub fn parse(text: &str, name: &str, base_dir: Option<&Path>) -> Result<Scene, SceneError> {
    parse_with(text, name, base_dir, &LoadOptions::default())
}

/// [`parse`] with what the scene may read and cost.
pub fn parse_with(text: &str, name: &str, base_dir: Option<&Path>, options: &LoadOptions) -> Result<Scene, SceneError> {
    parse_within(text, name, base_dir, MAX_OBJECTS, options)
}

/// [`parse`] with a smaller object limit and no memory budget: the property tests parse
/// hundreds of thousands of mutated files and refuse the big ones before generating them.
#[doc(hidden)]
pub fn parse_with_limit(
    text: &str,
    name: &str,
    base_dir: Option<&Path>,
    max_objects: u64,
) -> Result<Scene, SceneError> {
    let options = LoadOptions { budget: Budget::unlimited(), ..LoadOptions::default() };
    parse_within(text, name, base_dir, max_objects, &options)
}

fn parse_within(
    text: &str,
    name: &str,
    base_dir: Option<&Path>,
    max_objects: u64,
    options: &LoadOptions,
) -> Result<Scene, SceneError> {
    let raw = read_spec(text, name)?;
    let sandbox = match base_dir {
        Some(dir) => Some(Sandbox::new(dir, &options.allow_dirs)?.with_budget(options.budget.host_bytes)),
        None => None,
    };
    let options = Options { max_objects, override_counts: false, budget: &options.budget, sandbox: sandbox.as_ref() };
    build(raw, text, name, base_dir, options)
}

/// The embedded default scene: the stress scene with 100,000 objects, seed 1, animated.
pub fn default_scene() -> Scene {
    parse(DEFAULT_SCENE_TOML, "default.toml", None)
        .expect("the embedded default scene is valid (test default_scene_is_the_stress_scene)")
}

/// The default scene with its generator's object count replaced (`--objects`), checked
/// against `budget` before anything is generated. Neither the file's 50M limit nor its
/// no-empty-scene rule applies.
pub fn default_scene_within(objects: u32, budget: &Budget) -> Result<Scene, SceneError> {
    let mut raw = read_spec(DEFAULT_SCENE_TOML, "default.toml").expect("the embedded default scene is valid TOML");
    for set in &mut raw.objects {
        if let Some(stress) = &mut set.stress {
            stress.count = objects as i64;
        }
    }
    let options = Options { max_objects: u64::MAX, override_counts: true, budget, sandbox: None };
    build(raw, DEFAULT_SCENE_TOML, "the default scene (--objects)", None, options)
}

/// [`default_scene_within`] with no budget but the engine's object-id limit, which the
/// caller has checked (the viewer's panel and the benchmark check the adapter's limit).
pub fn default_scene_with_objects(objects: u32) -> Scene {
    default_scene_within(objects, &Budget::unlimited())
        .expect("the default scene is valid at any count within the id limit (test default_scene_with_objects_overrides_the_count)")
}

// ---------------------------------------------------------------------------------------
// Stages 1 and 2: TOML to specs, every number finite.

/// One parse of the text into toml's spanned document, then serde into the specs. Only when
/// [`Finite`](finite::Finite) refuses a number is the text parsed again, to name the number's
/// key path (keeping a copy of the document instead doubled the peak memory of every load).
fn read_spec(text: &str, file: &str) -> Result<SceneSpec, SceneError> {
    let document = DeTable::parse(text).map_err(|error| syntax_error(file, text, &error))?;
    SceneSpec::deserialize(toml::de::Deserializer::from(document)).map_err(|error| {
        let reparsed = || DeTable::parse(text).ok().map(|document| document.into_inner());
        match error.span().filter(|_| error.message() == finite::NOT_FINITE) {
            Some(span) => reparsed()
                .and_then(|document| not_finite(file, text, &document, span))
                .unwrap_or_else(|| syntax_error(file, text, &error)),
            None => reparsed()
                .and_then(|document| {
                    not_an_integer(file, text, &document, &error).or_else(|| a_date(file, text, &document, &error))
                })
                .unwrap_or_else(|| syntax_error(file, text, &error)),
        }
    })
}

/// serde's "invalid type: floating point `24.5`, expected i64" (or an out-of-range integer,
/// "invalid value: integer `-1`, expected u32") said as the user wrote it: the key path, the
/// value as written, and an integer, with its range where the type has one.
fn not_an_integer(file: &str, text: &str, document: &DeTable, error: &toml::de::Error) -> Option<SceneError> {
    let message = error.message().trim();
    let rest = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: "))?;
    let (_, expected) = rest.rsplit_once(", expected ")?;
    let wanted = match expected {
        "i64" | "i32" => "an integer".to_string(),
        "u8" => "an integer from 0 to 255".to_string(),
        "u16" => "an integer from 0 to 65535".to_string(),
        "u32" => format!("an integer from 0 to {}", u32::MAX),
        "u64" | "usize" => "an integer of 0 or more".to_string(),
        _ => return None,
    };
    let span = error.span()?;
    let path = key_path_at(document, &span)?;
    let written = text.get(span.clone())?.trim();
    let (line, column) = line_column(text, span.start);
    // Digits past i64: TOML's integers stop at 2^63 - 1 (the parser read it as a float).
    let digits = written.trim_start_matches(['+', '-']).replace('_', "");
    let largest = i64::MAX as u128 + u128::from(written.starts_with('-'));
    let beyond = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.parse::<u128>().map_or(true, |magnitude| magnitude > largest);
    let message = if beyond {
        format!("{path} = {written} is beyond TOML's integers (at most {}), and not {wanted}", i64::MAX)
    } else {
        format!("{path} = {written} is not {wanted}")
    };
    Some(SceneError::Syntax { file: file.to_string(), line, column, message })
}

/// A TOML date or time where something else goes: serde sees toml's private map for it and
/// said "invalid type: map, expected an array of length 3".
fn a_date(file: &str, text: &str, document: &DeTable, error: &toml::de::Error) -> Option<SceneError> {
    let (_, expected) = error.message().trim().strip_prefix("invalid type: map, ")?.split_once("expected ")?;
    let span = error.span()?;
    let written = text.get(span.clone())?.trim();
    written.parse::<toml::value::Datetime>().ok()?;
    let path = key_path_at(document, &span)?;
    let (line, column) = line_column(text, span.start);
    let message = format!("{path} = {written} is a TOML date or time, expected {expected}");
    Some(SceneError::Syntax { file: file.to_string(), line, column, message })
}

/// The key path (`meshes[0].segments`) of the innermost value whose span is `span`.
fn key_path_at(document: &DeTable, span: &Range<usize>) -> Option<String> {
    fn walk(value: &toml::Spanned<toml::de::DeValue>, path: &mut String, span: &Range<usize>) -> Option<String> {
        let before = path.len();
        let inner = match value.get_ref() {
            toml::de::DeValue::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
                path.push_str(&format!("[{i}]"));
                let found = walk(item, path, span);
                path.truncate(before);
                found
            }),
            toml::de::DeValue::Table(table) => table.iter().find_map(|(key, item)| {
                path.push('.');
                path.push_str(key.get_ref());
                let found = walk(item, path, span);
                path.truncate(before);
                found
            }),
            _ => None,
        };
        inner.or_else(|| (value.span() == *span).then(|| path.clone()))
    }
    document.iter().find_map(|(key, value)| walk(value, &mut key.get_ref().to_string(), span))
}

fn syntax_error(file: &str, text: &str, error: &toml::de::Error) -> SceneError {
    let (line, column) = error.span().map_or((1, 1), |span| line_column(text, span.start));
    let mut message = error.message().trim().replace('\n', "; ");
    // toml's parser names neither the key nor its table here; the span holds the key.
    if let Some(key) = error.span().filter(|_| message == "duplicate key").and_then(|span| text.get(span)) {
        message = format!("duplicate key `{key}`");
    }
    SceneError::Syntax { file: file.to_string(), line, column, message }
}

/// The refused number inside `span` (a number, or a scale range holding one), by key path.
fn not_finite(file: &str, text: &str, document: &DeTable, span: Range<usize>) -> Option<SceneError> {
    let (path, number) = finite::locate(document, &span)?;
    let (line, column) = line_column(text, number.start);
    let value = text.get(number)?.to_string();
    Some(SceneError::NotFinite { file: file.to_string(), line, column, path, value })
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
