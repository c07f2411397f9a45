//! glTF 2.0 import for scene files: meshes (positions, normals, first UV set, indices) and
//! base-colour materials with their textures, from `.gltf` (embedded `data:` or external
//! buffers and images) and `.glb` files.
//!
//! The `gltf` crate is built without its `import` feature: buffers and images are resolved
//! here, so every external path is checked against the scene's directory (a model may not
//! read files outside it) and the only image decoder is the PNG one the engine already links.
//! Every accessor is bounds-checked against its buffer before the crate's readers touch it:
//! those readers slice and assert on malformed input, and a scene file must never panic.

use std::path::{Component, Path, PathBuf};

use glam::{Vec3, Vec4};
use gltf::accessor::{DataType, Dimensions};
use gltf::mesh::Mode;

use crate::mesh::{MeshData, Vertex};

/// What can go wrong reading a glTF file; the scene loader adds the file's path.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("cannot read it: {0}")]
    Read(#[source] std::io::Error),
    #[error("not a valid glTF 2.0 file: {0}")]
    Parse(#[source] gltf::Error),
    #[error("{what} \"{uri}\" {reason}")]
    BadUri { what: String, uri: String, reason: String },
    #[error("cannot read {what} \"{path}\": {source}")]
    ReadExternal { what: String, path: String, source: std::io::Error },
    #[error("{what}: {reason}")]
    Corrupt { what: String, reason: String },
    #[error("{0} (not supported)")]
    Unsupported(String),
    #[error("it has no {what} {selector}; it has {available}")]
    NotFound { what: &'static str, selector: String, available: String },
    #[error("image {index}: {reason}")]
    Image { index: usize, reason: String },
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
    /// `alphaMode: MASK`.
    pub masked: bool,
    pub alpha_cutoff: f32,
    pub double_sided: bool,
}

/// An opened glTF file with every buffer resolved.
pub struct GltfFile {
    document: gltf::Document,
    buffers: Vec<Vec<u8>>,
    /// Directory that relative URIs resolve against.
    dir: PathBuf,
    /// Directory no external URI may leave.
    root: PathBuf,
}

/// Opens a `.gltf` or `.glb` file. `root` is the directory external buffers and images must
/// stay inside (the scene file's directory).
pub fn open(path: &Path, root: &Path) -> Result<GltfFile, ImportError> {
    let bytes = std::fs::read(path).map_err(ImportError::Read)?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    from_bytes(&bytes, &dir, root)
}

/// Parses a glTF file already in memory; `dir` is where its relative URIs point.
pub fn from_bytes(bytes: &[u8], dir: &Path, root: &Path) -> Result<GltfFile, ImportError> {
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
    let json = document.into_json();
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
    let document = gltf::Document::from_json(json).map_err(ImportError::Parse)?;
    if let Some(required) = document.extensions_required().next() {
        return Err(ImportError::Unsupported(format!("required extension {required}")));
    }
    let mut file = GltfFile { document, buffers: Vec::new(), dir: dir.to_path_buf(), root: root.to_path_buf() };
    let mut buffers = Vec::new();
    for buffer in file.document.buffers() {
        let what = format!("buffer {}", buffer.index());
        let mut data = match buffer.source() {
            gltf::buffer::Source::Bin => blob.take().ok_or_else(|| ImportError::Corrupt {
                what: what.clone(),
                reason: "it refers to a missing GLB BIN chunk".into(),
            })?,
            gltf::buffer::Source::Uri(uri) => file.read_uri(&what, uri)?,
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

    pub fn image_count(&self) -> usize {
        self.document.images().len()
    }

    /// One mesh with all its triangle primitives merged. Missing normals are generated from
    /// the faces (smooth where vertices are shared, flat where they are not); missing UVs are 0.
    pub fn mesh(&self, selector: Option<&Selector>) -> Result<MeshData, ImportError> {
        let names: Vec<Option<&str>> = self.document.meshes().map(|m| m.name()).collect();
        let index = select("mesh", selector, &names)?;
        let mesh = self.document.meshes().nth(index).expect("select returns an index in range");
        let label = |primitive: usize| format!("mesh {} primitive {primitive}", describe(index, names[index]));
        let mut data = MeshData::default();
        for primitive in mesh.primitives() {
            let what = label(primitive.index());
            if primitive.mode() != Mode::Triangles {
                return Err(ImportError::Unsupported(format!(
                    "{what}: mode {:?}, only triangle lists",
                    primitive.mode()
                )));
            }
            let reader = primitive.reader(|buffer| self.buffers.get(buffer.index()).map(Vec::as_slice));
            let positions = primitive.get(&gltf::Semantic::Positions).ok_or_else(|| ImportError::Corrupt {
                what: what.clone(),
                reason: "it has no POSITION attribute".into(),
            })?;
            let count =
                self.check_accessor(&positions, &format!("{what} POSITION"), &[(Dimensions::Vec3, &[DataType::F32])])?;
            let read_failed = |attribute: &str| ImportError::Corrupt {
                what: format!("{what} {attribute}"),
                reason: "its data could not be read".into(),
            };
            let mut vertices: Vec<Vertex> = reader
                .read_positions()
                .ok_or_else(|| read_failed("POSITION"))?
                .map(|position| Vertex { position, normal: [0.0; 3], uv: [0.0; 2] })
                .collect();
            if vertices.len() != count {
                return Err(read_failed("POSITION"));
            }
            if let Some(normals) = primitive.get(&gltf::Semantic::Normals) {
                self.check_vertex_attribute(
                    &normals,
                    &format!("{what} NORMAL"),
                    count,
                    &[(Dimensions::Vec3, &[DataType::F32])],
                )?;
                for (vertex, normal) in
                    vertices.iter_mut().zip(reader.read_normals().ok_or_else(|| read_failed("NORMAL"))?)
                {
                    vertex.normal = normal;
                }
            }
            if let Some(uvs) = primitive.get(&gltf::Semantic::TexCoords(0)) {
                let types: &[DataType] = &[DataType::F32, DataType::U8, DataType::U16];
                self.check_vertex_attribute(&uvs, &format!("{what} TEXCOORD_0"), count, &[(Dimensions::Vec2, types)])?;
                let read = reader.read_tex_coords(0).ok_or_else(|| read_failed("TEXCOORD_0"))?;
                for (vertex, uv) in vertices.iter_mut().zip(read.into_f32()) {
                    vertex.uv = uv;
                }
            }
            let indices: Vec<u32> = match primitive.indices() {
                Some(accessor) => {
                    let types: &[DataType] = &[DataType::U8, DataType::U16, DataType::U32];
                    self.check_accessor(&accessor, &format!("{what} indices"), &[(Dimensions::Scalar, types)])?;
                    reader.read_indices().ok_or_else(|| read_failed("indices"))?.into_u32().collect()
                }
                None => (0..count as u32).collect(),
            };
            if !indices.len().is_multiple_of(3) {
                return Err(ImportError::Corrupt {
                    what,
                    reason: format!("{} indices do not make whole triangles", indices.len()),
                });
            }
            if let Some(&bad) = indices.iter().find(|&&i| i as usize >= count) {
                return Err(ImportError::Corrupt {
                    what,
                    reason: format!("index {bad} is out of range for {count} vertices"),
                });
            }
            if primitive.get(&gltf::Semantic::Normals).is_none() {
                generate_normals(&mut vertices, &indices);
            }
            let base = data.vertices.len() as u32;
            data.vertices.extend(vertices);
            data.indices.extend(indices.iter().map(|i| i + base));
        }
        if data.indices.is_empty() {
            return Err(ImportError::Corrupt {
                what: format!("mesh {}", describe(index, names[index])),
                reason: "it has no triangles".into(),
            });
        }
        if let Some(bad) =
            data.vertices.iter().position(|v| !v.position.iter().chain(&v.normal).chain(&v.uv).all(|x| x.is_finite()))
        {
            return Err(ImportError::Corrupt {
                what: format!("mesh {}", describe(index, names[index])),
                reason: format!("vertex {bad} has a non-finite component"),
            });
        }
        Ok(data)
    }

    /// One material's base colour, texture and alpha mode.
    pub fn material(&self, selector: Option<&Selector>) -> Result<GltfMaterial, ImportError> {
        let names: Vec<Option<&str>> = self.document.materials().map(|m| m.name()).collect();
        let index = select("material", selector, &names)?;
        let material = self.document.materials().nth(index).expect("select returns an index in range");
        let pbr = material.pbr_metallic_roughness();
        let base_color = Vec4::from(pbr.base_color_factor());
        if !base_color.is_finite() {
            return Err(ImportError::Corrupt {
                what: format!("material {}", describe(index, names[index])),
                reason: "its base colour factor is not finite".into(),
            });
        }
        Ok(GltfMaterial {
            name: material.name().map(str::to_string),
            base_color,
            base_color_image: pbr.base_color_texture().map(|info| info.texture().source().index()),
            masked: material.alpha_mode() == gltf::material::AlphaMode::Mask,
            alpha_cutoff: material.alpha_cutoff().unwrap_or(0.5),
            double_sided: material.double_sided(),
        })
    }

    /// Decodes image `index` (PNG only) and resamples it, nearest texel, to `size`×`size`
    /// RGBA8, the size every layer of the scene's texture array shares.
    pub fn image_rgba(&self, index: usize, size: u32) -> Result<Vec<u8>, ImportError> {
        let fail = |reason: String| ImportError::Image { index, reason };
        // Read from the JSON rather than `Image::source`, which unwraps a missing `uri` and a
        // buffer view's missing `mimeType`.
        let image = self.document.as_json().images.get(index).ok_or_else(|| fail("no such image".into()))?;
        let bytes: Vec<u8> = match (&image.buffer_view, &image.uri) {
            (Some(view), _) => {
                let view = self.document.views().nth(view.value()).ok_or_else(|| fail("no such buffer view".into()))?;
                self.view_bytes(&view, &format!("image {index}"))?.to_vec()
            }
            (None, Some(uri)) => self.read_uri(&format!("image {index}"), uri)?,
            (None, None) => return Err(fail("it has neither a uri nor a bufferView".into())),
        };
        let mut reader = image::ImageReader::new(std::io::Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| fail(e.to_string()))?;
        if reader.format() != Some(image::ImageFormat::Png) {
            return Err(fail("only PNG images are supported".into()));
        }
        let mut limits = image::Limits::default();
        limits.max_image_width = Some(16_384);
        limits.max_image_height = Some(16_384);
        reader.limits(limits);
        let decoded = reader.decode().map_err(|e| fail(e.to_string()))?.to_rgba8();
        let (width, height) = decoded.dimensions();
        if width == 0 || height == 0 {
            return Err(fail("it is empty".into()));
        }
        Ok(resize_nearest(decoded.as_raw(), width, height, size))
    }

    /// Checks an accessor that the crate's readers will walk: no sparse storage, an allowed
    /// type, and every element inside its view and its buffer. Returns the element count.
    fn check_accessor(
        &self,
        accessor: &gltf::Accessor,
        what: &str,
        allowed: &[(Dimensions, &[DataType])],
    ) -> Result<usize, ImportError> {
        let corrupt = |reason: String| ImportError::Corrupt { what: what.to_string(), reason };
        if accessor.sparse().is_some() {
            return Err(ImportError::Unsupported(format!("{what}: sparse accessor")));
        }
        let (dimensions, data_type) = (accessor.dimensions(), accessor.data_type());
        if !allowed.iter().any(|(d, types)| *d == dimensions && types.contains(&data_type)) {
            return Err(ImportError::Unsupported(format!("{what}: {dimensions:?} of {data_type:?}")));
        }
        let view = accessor.view().ok_or_else(|| corrupt("it has no buffer view".into()))?;
        let count = accessor.count();
        if count == 0 {
            return Err(corrupt("it has no elements".into()));
        }
        let element = accessor.size();
        let stride = view.stride().unwrap_or(element);
        if stride < element {
            return Err(corrupt(format!("stride {stride} is smaller than its {element}-byte elements")));
        }
        let view_bytes = self.view_bytes(&view, what)?;
        let end = (count - 1)
            .checked_mul(stride)
            .and_then(|n| n.checked_add(element))
            .and_then(|n| n.checked_add(accessor.offset()));
        match end {
            Some(end) if end <= view_bytes.len() => Ok(count),
            _ => Err(corrupt(format!("{count} elements run past the end of buffer view {}", view.index()))),
        }
    }

    fn check_vertex_attribute(
        &self,
        accessor: &gltf::Accessor,
        what: &str,
        vertices: usize,
        allowed: &[(Dimensions, &[DataType])],
    ) -> Result<(), ImportError> {
        let count = self.check_accessor(accessor, what, allowed)?;
        if count != vertices {
            return Err(ImportError::Corrupt {
                what: what.to_string(),
                reason: format!("it has {count} elements for {vertices} positions"),
            });
        }
        Ok(())
    }

    fn view_bytes(&self, view: &gltf::buffer::View, what: &str) -> Result<&[u8], ImportError> {
        let buffer = &self.buffers[view.buffer().index()];
        view.offset().checked_add(view.length()).and_then(|end| buffer.get(view.offset()..end)).ok_or_else(|| {
            ImportError::Corrupt {
                what: what.to_string(),
                reason: format!("buffer view {} runs past the end of buffer {}", view.index(), view.buffer().index()),
            }
        })
    }

    /// Reads a `data:` URI or a file relative to the glTF file, which must stay inside the
    /// scene's directory.
    fn read_uri(&self, what: &str, uri: &str) -> Result<Vec<u8>, ImportError> {
        let bad =
            |reason: &str| ImportError::BadUri { what: what.to_string(), uri: shorten(uri), reason: reason.into() };
        if let Some(rest) = uri.strip_prefix("data:") {
            let (header, payload) = rest.split_once(',').ok_or_else(|| bad("is a data URI without a comma"))?;
            if !header.ends_with(";base64") {
                return Err(bad("is a data URI that is not base64"));
            }
            return decode_base64(payload).ok_or_else(|| bad("has invalid base64 data"));
        }
        if uri.contains("://") {
            return Err(bad("is not a relative file path or a data: URI"));
        }
        let relative = percent_decode(uri).ok_or_else(|| bad("has an invalid %-escape"))?;
        let path = Path::new(&relative);
        let joined = self.dir.join(path);
        let normal = lexically_normal(&joined).ok_or_else(|| bad("leaves the scene's directory"))?;
        let root = lexically_normal(&self.root).unwrap_or_else(|| self.root.clone());
        if path.is_absolute() || !normal.starts_with(&root) {
            return Err(bad("leaves the scene's directory"));
        }
        std::fs::read(&joined).map_err(|source| ImportError::ReadExternal {
            what: what.to_string(),
            path: relative,
            source,
        })
    }
}

/// Resolves `.` and `..` without touching the file system; `None` when `..` climbs above the
/// start of a relative path or the root of an absolute one.
pub fn lexically_normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    let mut depth = 0usize;
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if depth == 0 {
                    return None;
                }
                depth -= 1;
                out.pop();
            }
            Component::Normal(part) => {
                depth += 1;
                out.push(part);
            }
            Component::RootDir | Component::Prefix(_) => out.push(component.as_os_str()),
        }
    }
    Some(out)
}

fn describe(index: usize, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("#{index} \"{name}\""),
        None => format!("#{index}"),
    }
}

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

/// Area-weighted face normals summed per vertex: smooth across shared vertices, flat for
/// unshared ones (non-indexed primitives).
fn generate_normals(vertices: &mut [Vertex], indices: &[u32]) {
    let mut sums = vec![Vec3::ZERO; vertices.len()];
    for tri in indices.chunks_exact(3) {
        let [a, b, c] = [tri[0], tri[1], tri[2]].map(|i| Vec3::from(vertices[i as usize].position));
        let face = (b - a).cross(c - a);
        for &i in tri {
            sums[i as usize] += face;
        }
    }
    for (vertex, sum) in vertices.iter_mut().zip(sums) {
        vertex.normal = sum.normalize_or(Vec3::Y).into();
    }
}

/// Nearest-texel resample of RGBA8 `width`×`height` to `size`×`size`.
pub fn resize_nearest(rgba: &[u8], width: u32, height: u32, size: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        let source_y = (y as u64 * height as u64 / size as u64) as usize;
        for x in 0..size {
            let source_x = (x as u64 * width as u64 / size as u64) as usize;
            let at = (source_y * width as usize + source_x) * 4;
            out.extend_from_slice(&rgba[at..at + 4]);
        }
    }
    out
}

fn shorten(uri: &str) -> String {
    if uri.chars().count() > 48 {
        format!("{}…", uri.chars().take(48).collect::<String>())
    } else {
        uri.to_string()
    }
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

const BASE64_ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with optional padding; `None` on any other character.
pub fn decode_base64(text: &str) -> Option<Vec<u8>> {
    let value = |symbol: u8| -> Option<u32> {
        Some(match symbol {
            b'A'..=b'Z' => symbol - b'A',
            b'a'..=b'z' => symbol - b'a' + 26,
            b'0'..=b'9' => symbol - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let symbols = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(symbols.len() * 3 / 4);
    let (mut accumulator, mut bits) = (0u32, 0u32);
    for &symbol in symbols {
        accumulator = (accumulator << 6) | value(symbol)?;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((accumulator >> bits) as u8);
            accumulator &= (1 << bits) - 1;
        }
    }
    // One symbol left over carries 6 bits, less than a byte: the text was cut short.
    (bits != 6).then_some(out)
}

/// Standard base64 with padding (used to write embedded buffers).
pub fn encode_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(BASE64_ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
