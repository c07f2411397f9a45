//! What a glTF file uses that the engine does not draw, named once per file when a scene
//! loads it (the scene's `notes`; the command line prints them as warnings), so that nothing
//! is dropped without a word. What a file *requires* and the engine cannot read is refused
//! when it is opened instead. Rules of the specification a file breaks where the engine can
//! still read it as written (misaligned accessors, integer positions without
//! `KHR_mesh_quantization`) are named the same way, each by its JSON path
//! ([`GltfFile::broken_rules`]).

use super::material::{EMISSIVE_STRENGTH, TEXTURE_TRANSFORM, UNLIT};
use super::nodes::{has_triangles, INSTANCING};
use gltf::accessor::DataType;

use super::{GltfFile, QUANTIZATION};

impl GltfFile {
    /// Each unsupported feature the file uses, in words: what it is and what is drawn
    /// instead. Empty when the file is drawn as written.
    pub fn unsupported(&self) -> Vec<String> {
        let document = &self.document;
        let primitives: Vec<gltf::Primitive> = document.meshes().flat_map(|mesh| mesh.primitives()).collect();
        let materials: Vec<gltf::Material> = document.materials().collect();
        let extensions: Vec<&str> = document
            .extensions_used()
            .filter(|name| ![QUANTIZATION, INSTANCING, TEXTURE_TRANSFORM, UNLIT, EMISSIVE_STRENGTH].contains(name))
            .collect();
        let found = [
            (document.skins().len() > 0, "skins (drawn in the bind pose)"),
            (document.animations().len() > 0, "animations (drawn at rest)"),
            (primitives.iter().any(|p| !has_triangles(p)), "points and lines (left out)"),
            (document.cameras().len() > 0, "cameras (the scene's own camera is used)"),
        ];
        let mut notes: Vec<String> =
            found.into_iter().filter(|(present, _)| *present).map(|(_, text)| text.to_string()).collect();
        let past_1 = far_texture_sets(&materials);
        if !past_1.is_empty() {
            notes.push(format!("textures on TEXCOORD_2 or later (read with TEXCOORD_0): {}", past_1.join(", ")));
        }
        if !extensions.is_empty() {
            notes.push(format!("extensions {} (ignored)", extensions.join(", ")));
        }
        notes
    }
}

/// Each texture reference past TEXCOORD_1, by JSON path with the set it names (a
/// KHR_texture_transform's texCoord overrides the reference's own); a few, then how many more.
fn far_texture_sets(materials: &[gltf::Material]) -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |path: String, set: u32, transform: Option<&serde_json::Value>| {
        let given = transform.and_then(|t| t.get("texCoord")).and_then(serde_json::Value::as_u64);
        match given {
            Some(set) if set > 1 => found.push(format!("{path} (its {TEXTURE_TRANSFORM} texCoord {set})")),
            None if set > 1 => found.push(format!("{path} (texCoord {set})")),
            _ => {}
        }
    };
    for material in materials {
        let at = |slot: &str| format!("materials[{}].{slot}", material.index().unwrap_or(0));
        let pbr = material.pbr_metallic_roughness();
        if let Some(t) = pbr.base_color_texture() {
            check(at("pbrMetallicRoughness.baseColorTexture"), t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM));
        }
        if let Some(t) = pbr.metallic_roughness_texture() {
            let path = at("pbrMetallicRoughness.metallicRoughnessTexture");
            check(path, t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM));
        }
        if let Some(t) = material.normal_texture() {
            check(at("normalTexture"), t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM));
        }
        if let Some(t) = material.occlusion_texture() {
            check(at("occlusionTexture"), t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM));
        }
        if let Some(t) = material.emissive_texture() {
            check(at("emissiveTexture"), t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM));
        }
    }
    let more = found.len().saturating_sub(4);
    found.truncate(4);
    if more > 0 {
        found.push(format!("{more} more"));
    }
    found
}

impl GltfFile {
    /// Each rule of the glTF 2.0 specification the file breaks that the importer reads past,
    /// by JSON path: an accessor offset that is not a multiple of its component size (in its
    /// view or in the buffer), a vertex attribute's offset or its view's stride that is not a
    /// multiple of 4, and integer positions, normals or texture coordinates in a file that does
    /// not declare `KHR_mesh_quantization`. At most a few of each, then how many more.
    pub fn broken_rules(&self) -> Vec<String> {
        let json = self.document.as_json();
        let mut broken = Vec::new();
        for (index, accessor) in json.accessors.iter().enumerate() {
            let component = match &accessor.component_type {
                gltf::json::validation::Checked::Valid(c) => c.0.size(),
                gltf::json::validation::Checked::Invalid => 1,
            };
            let offset = accessor.byte_offset.map_or(0, |o| o.0);
            if !offset.is_multiple_of(component as u64) {
                broken.push(format!(
                    "accessors[{index}].byteOffset {offset} is not a multiple of its {component}-byte components"
                ));
            } else if let Some(view) = accessor.buffer_view.and_then(|v| json.buffer_views.get(v.value())) {
                let start = view.byte_offset.map_or(0, |o| o.0) + offset;
                if !start.is_multiple_of(component as u64) {
                    broken.push(format!(
                        "accessors[{index}] starts {start} bytes into its buffer (bufferViews[{}].byteOffset + \
                         byteOffset), not a multiple of its {component}-byte components",
                        accessor.buffer_view.map_or(0, |v| v.value())
                    ));
                }
            }
        }
        let quantized = json.extensions_used.iter().any(|name| name == QUANTIZATION);
        for mesh in self.document.meshes() {
            for primitive in mesh.primitives() {
                for (semantic, accessor) in primitive.attributes() {
                    let path = format!(
                        "meshes[{}].primitives[{}].attributes.{}",
                        mesh.index(),
                        primitive.index(),
                        semantic.to_string()
                    );
                    let a = &json.accessors[accessor.index()];
                    let offset = a.byte_offset.map_or(0, |o| o.0);
                    if !offset.is_multiple_of(4) {
                        broken.push(format!(
                            "{path}: accessors[{}].byteOffset {offset} is not a multiple of 4, as vertex attributes' must be",
                            accessor.index()
                        ));
                    }
                    if let Some(view) = accessor.view() {
                        if let Some(stride) = view.stride().filter(|s| !s.is_multiple_of(4)) {
                            broken.push(format!(
                                "{path}: bufferViews[{}].byteStride {stride} is not a multiple of 4",
                                view.index()
                            ));
                        }
                    }
                    let integer = accessor.data_type() != DataType::F32;
                    let needs_extension = matches!(
                        semantic,
                        gltf::Semantic::Positions
                            | gltf::Semantic::Normals
                            | gltf::Semantic::Tangents
                            | gltf::Semantic::TexCoords(_)
                    );
                    if integer && needs_extension && !quantized {
                        broken.push(format!(
                            "{path}: accessors[{}] is {:?}, which only KHR_mesh_quantization allows, and the file does \
                             not list it in extensionsUsed (read as that extension says)",
                            accessor.index(),
                            accessor.data_type()
                        ));
                    }
                }
            }
        }
        broken.sort();
        broken.dedup();
        const SHOWN: usize = 4;
        if broken.len() > SHOWN {
            let more = broken.len() - SHOWN;
            broken.truncate(SHOWN);
            broken.push(format!("and {more} more"));
        }
        broken
    }
}
