//! glTF 2.0 import for scene files: meshes (positions, normals, first UV set, indices), whole
//! models (every node's primitives with their world transforms, [`ModelPart`]) and
//! base-colour materials with their textures, from `.gltf` (embedded `data:` or external
//! buffers and images) and `.glb` files.
//!
//! The `gltf` crate is built without its `import` feature: buffers and images are resolved
//! here, every external file through the scene's [`Sandbox`] (canonical path under the
//! scene's directory, regular files only, size-capped), and images are decoded by the `image`
//! crate's PNG and JPEG decoders. Every accessor is bounds-checked against its buffer before
//! the crate's readers touch it: those readers slice and assert on malformed input, and a
//! scene file must never panic. A mesh's size can be read without reading its data
//! ([`GltfFile::mesh_size`]), so a scene's budget is checked before any mesh is imported.

mod attributes;
mod images;
mod material;
mod mesh;
mod nodes;
mod notes;
mod uri;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::Vec4;

use super::sandbox::{Sandbox, SandboxError};
use crate::tunables::HOST_BYTES_PER_GLTF_BYTE;
pub use images::{images_decoded, ImageCache};
pub use material::resize_nearest;
pub use nodes::{ModelPart, PartCensus};
pub use uri::{decode_base64, encode_base64};

/// Integer vertex attributes; read by [`attributes`].
const QUANTIZATION: &str = "KHR_mesh_quantization";

/// What can go wrong reading a glTF file; the scene loader adds the file's path.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file itself or an external buffer or image could not be read (or may not be).
    #[error(transparent)]
    Access(#[from] SandboxError),
    /// The file is not glTF 2.0 JSON or GLB, or fails the `gltf` crate's validation.
    #[error("not a valid glTF 2.0 file")]
    Parse(#[source] gltf::Error),
    /// A buffer or image URI that cannot be resolved: a malformed `data:` URI, or one that is
    /// not a file path relative to the glTF file (a URL, an absolute path, a bad `%` escape).
    #[error("{what} \"{uri}\" {reason}")]
    BadUri {
        /// What names it (`buffer 0`, `images[2]`).
        what: String,
        /// The URI, shortened for display.
        uri: String,
        /// Why it cannot be resolved.
        reason: String,
    },
    /// Data that contradicts the file's own declarations: an accessor past its buffer, an
    /// index out of range, a non-finite vertex, a missing GLB chunk.
    #[error("{what}: {reason}")]
    Corrupt {
        /// The part of the file at fault (`mesh #0 primitive 1 POSITION`).
        what: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Valid glTF the importer does not read (a required extension, an attribute format);
    /// the text says what.
    #[error("{0} (not supported)")]
    Unsupported(String),
    /// A mesh, material, scene or primitive the scene file asks for is not in the file.
    #[error("it has no {what} {selector}; it has {available}")]
    NotFound {
        /// What was looked for: `mesh`, `material`, `scene` or `mesh primitive`.
        what: &'static str,
        /// Which one, by index or name.
        selector: String,
        /// What the file does have.
        available: String,
    },
    /// An image could not be found, read, decoded or afforded.
    #[error("images[{index}]{origin}: {reason}")]
    Image {
        /// Index of the image in the file's `images`.
        index: usize,
        /// Where the image is: ` "texture.png"`, ` (buffer view 3)`, or empty.
        origin: String,
        /// Why it could not be used.
        reason: String,
    },
}

/// Picks one mesh or material of a file: by name or by position in the file.
#[derive(Clone, Debug, PartialEq)]
pub enum Selector {
    Index(usize),
    Name(String),
}

impl std::fmt::Display for Selector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Selector::Index(i) => write!(f, "#{i}"),
            Selector::Name(name) => write!(f, "\"{name}\""),
        }
    }
}

/// A material's base colour as the scene needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct GltfMaterial {
    pub name: Option<String>,
    /// Linear RGBA factor.
    pub base_color: Vec4,
    /// Index of the image holding the base-colour texture, if any.
    pub base_color_image: Option<usize>,
    /// The base-colour texture's wrap modes and filter (glTF's defaults without one).
    pub base_color_sampling: crate::scene::textures::Sampling,
    /// The base-colour texture's coordinate set and `KHR_texture_transform`.
    pub base_color_uv: crate::scene::UvTransform,
    /// Index of the image holding the normal map, if any.
    pub normal_image: Option<usize>,
    pub normal_sampling: crate::scene::textures::Sampling,
    pub normal_uv: crate::scene::UvTransform,
    /// `normalTexture.scale`.
    pub normal_scale: f32,
    /// `alphaMode: MASK`.
    pub masked: bool,
    /// `alphaMode: BLEND`.
    pub blended: bool,
    pub alpha_cutoff: f32,
    pub double_sided: bool,
    /// `metallicRoughnessTexture` (B metal, G roughness, × the factors).
    pub metallic_roughness_texture: Option<GltfTexture>,
    /// `occlusionTexture` (R) and its `strength`.
    pub occlusion_texture: Option<GltfTexture>,
    pub occlusion_strength: f32,
    /// `emissiveTexture` (sRGB, × the emissive factor).
    pub emissive_texture: Option<GltfTexture>,
    /// `metallicFactor`, in [0, 1].
    pub metallic: f32,
    /// `roughnessFactor`, in [0, 1].
    pub roughness: f32,
    /// `emissiveFactor` × `KHR_materials_emissive_strength`.
    pub emissive: glam::Vec3,
    /// `KHR_materials_unlit`.
    pub unlit: bool,
}

/// One of a material's textures: its image, its sampler's wrap modes and filter, its
/// coordinate set and transform.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GltfTexture {
    pub image: usize,
    pub sampling: crate::scene::textures::Sampling,
    pub uv: crate::scene::UvTransform,
}

/// An opened glTF file with every buffer resolved.
pub struct GltfFile {
    document: gltf::Document,
    buffers: Vec<Vec<u8>>,
    /// Directory that relative URIs resolve against.
    dir: PathBuf,
    /// What external URIs may read.
    sandbox: Sandbox,
    /// The file's canonical path (empty for a file parsed from memory): names images that
    /// live in its buffer views for the image cache.
    source: PathBuf,
    /// Each node's `EXT_mesh_gpu_instancing` attributes, by node index.
    instancing: HashMap<usize, nodes::Instancing>,
}

/// Opens a `.gltf` or `.glb` file through the scene's sandbox, which its external buffers and
/// images must also stay inside.
pub fn open(path: &Path, sandbox: &Sandbox) -> Result<GltfFile, ImportError> {
    let (canonical, bytes) = sandbox.read_costing(path, "glTF file", HOST_BYTES_PER_GLTF_BYTE)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut file = from_bytes(&bytes, &dir, sandbox)?;
    file.source = canonical;
    Ok(file)
}

/// Parses a glTF file already in memory; `dir` is where its relative URIs point.
pub fn from_bytes(bytes: &[u8], dir: &Path, sandbox: &Sandbox) -> Result<GltfFile, ImportError> {
    // The crate subtracts the 12-byte GLB header from the declared length unchecked.
    if let Some(length) = bytes.strip_prefix(b"glTF").and_then(|rest| rest.get(4..8)) {
        let length = u32::from_le_bytes(length.try_into().expect("a 4-byte slice"));
        if length < 12 {
            return Err(ImportError::Corrupt {
                what: "GLB header".into(),
                reason: format!("it declares {length} bytes, less than the header itself"),
            });
        }
    }
    let gltf::Gltf { document, mut blob } =
        gltf::Gltf::from_slice_without_validation(bytes).map_err(ImportError::Parse)?;
    // The crate's validator indexes `accessors` with each primitive's POSITION index before
    // checking it: check that one first, then let the validator check everything else.
    let mut json = document.into_json();
    for (m, mesh) in json.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let position = primitive.attributes.get(&gltf::json::validation::Checked::Valid(gltf::Semantic::Positions));
            if let Some(accessor) = position.filter(|a| a.value() >= json.accessors.len()) {
                return Err(ImportError::Corrupt {
                    what: format!("mesh #{m} primitive {p} POSITION"),
                    reason: format!("accessor {} does not exist", accessor.value()),
                });
            }
        }
    }
    // Required extensions are checked here, before the crate's validator, which refuses every
    // one it does not implement (these two included) with a message of its own.
    let readable =
        [nodes::INSTANCING, QUANTIZATION, material::TEXTURE_TRANSFORM, material::UNLIT, material::EMISSIVE_STRENGTH];
    if let Some(required) = json.extensions_required.iter().find(|e| !readable.contains(&e.as_str())) {
        return Err(ImportError::Unsupported(format!("required extension {required}")));
    }
    json.extensions_required.clear();
    let document = gltf::Document::from_json(json).map_err(ImportError::Parse)?;
    let mut file = GltfFile {
        document,
        buffers: Vec::new(),
        dir: dir.to_path_buf(),
        sandbox: sandbox.clone(),
        source: PathBuf::new(),
        instancing: nodes::instancing_from_json(bytes)?,
    };
    let mut buffers = Vec::new();
    for buffer in file.document.buffers() {
        let what = format!("buffer {}", buffer.index());
        let mut data = match buffer.source() {
            gltf::buffer::Source::Bin => blob.take().ok_or_else(|| ImportError::Corrupt {
                what: what.clone(),
                reason: "it refers to a missing GLB BIN chunk".into(),
            })?,
            gltf::buffer::Source::Uri(uri) => file.read_uri(&what, uri)?.1,
        };
        if data.len() < buffer.length() {
            return Err(ImportError::Corrupt {
                what,
                reason: format!("it has {} bytes but the file declares {}", data.len(), buffer.length()),
            });
        }
        data.truncate(buffer.length());
        buffers.push(data);
    }
    file.buffers = buffers;
    Ok(file)
}

impl GltfFile {
    pub fn mesh_count(&self) -> usize {
        self.document.meshes().len()
    }

    pub fn material_count(&self) -> usize {
        self.document.materials().len()
    }

    /// The name of mesh `index`, if it has one.
    pub fn mesh_name(&self, index: usize) -> Option<&str> {
        self.document.meshes().nth(index).and_then(|mesh| mesh.name())
    }

    /// The name of material `index`, if it has one.
    pub fn material_name(&self, index: usize) -> Option<&str> {
        self.document.materials().nth(index).and_then(|material| material.name())
    }

    pub fn image_count(&self) -> usize {
        self.document.images().len()
    }

    /// The bytes of a buffer view, checked against its buffer.
    fn view_bytes(&self, view: &gltf::buffer::View, what: &str) -> Result<&[u8], ImportError> {
        let buffer = &self.buffers[view.buffer().index()];
        view.offset().checked_add(view.length()).and_then(|end| buffer.get(view.offset()..end)).ok_or_else(|| {
            ImportError::Corrupt {
                what: what.to_string(),
                reason: format!("buffer view {} runs past the end of buffer {}", view.index(), view.buffer().index()),
            }
        })
    }
}

/// `#index "name"`, as messages name a mesh or material of the file.
fn describe(index: usize, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("#{index} \"{name}\""),
        None => format!("#{index}"),
    }
}

/// The index of the mesh or material a selector picks (the first when there is none).
fn select(what: &'static str, selector: Option<&Selector>, names: &[Option<&str>]) -> Result<usize, ImportError> {
    let available = || {
        if names.is_empty() {
            return "none".to_string();
        }
        let listed: Vec<String> = names.iter().enumerate().map(|(i, n)| describe(i, *n)).collect();
        listed.join(", ")
    };
    let found = match selector {
        None => (!names.is_empty()).then_some(0),
        Some(Selector::Index(i)) => (*i < names.len()).then_some(*i),
        Some(Selector::Name(name)) => names.iter().position(|n| *n == Some(name.as_str())),
    };
    found.ok_or_else(|| ImportError::NotFound {
        what,
        selector: selector.map_or_else(|| "at all".to_string(), Selector::to_string),
        available: available(),
    })
}
