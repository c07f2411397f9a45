//! What a glTF file uses that the engine does not draw, named once per file when a scene
//! loads it (the scene's `notes`; the command line prints them as warnings), so that nothing
//! is dropped without a word. What a file *requires* and the engine cannot read is refused
//! when it is opened instead.

use super::material::{EMISSIVE_STRENGTH, TEXTURE_TRANSFORM, UNLIT};
use super::nodes::{has_triangles, INSTANCING};
use super::{GltfFile, QUANTIZATION};

impl GltfFile {
    /// Each unsupported feature the file uses, in words: what it is and what is drawn
    /// instead. Empty when the file is drawn as written.
    pub fn unsupported(&self) -> Vec<String> {
        let document = &self.document;
        let primitives: Vec<gltf::Primitive> = document.meshes().flat_map(|mesh| mesh.primitives()).collect();
        let materials: Vec<gltf::Material> = document.materials().collect();
        let any_material = |test: &dyn Fn(&gltf::Material) -> bool| materials.iter().any(test);
        let extensions: Vec<&str> = document
            .extensions_used()
            .filter(|name| ![QUANTIZATION, INSTANCING, TEXTURE_TRANSFORM, UNLIT, EMISSIVE_STRENGTH].contains(name))
            .collect();
        let found = [
            (document.skins().len() > 0, "skins (drawn in the bind pose)"),
            (document.animations().len() > 0, "animations (drawn at rest)"),
            (primitives.iter().any(|p| !has_triangles(p)), "points and lines (left out)"),
            (
                any_material(&|m| {
                    // A KHR_texture_transform texCoord overrides the textureInfo's.
                    let past_1 = |set: u32, transform: Option<&serde_json::Value>| {
                        let given = transform.and_then(|t| t.get("texCoord")).and_then(serde_json::Value::as_u64);
                        given.unwrap_or(u64::from(set)) > 1
                    };
                    let pbr = m.pbr_metallic_roughness();
                    pbr.base_color_texture()
                        .is_some_and(|t| past_1(t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM)))
                        || pbr
                            .metallic_roughness_texture()
                            .is_some_and(|t| past_1(t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM)))
                        || m.normal_texture()
                            .is_some_and(|t| past_1(t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM)))
                        || m.occlusion_texture()
                            .is_some_and(|t| past_1(t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM)))
                        || m.emissive_texture()
                            .is_some_and(|t| past_1(t.tex_coord(), t.extension_value(TEXTURE_TRANSFORM)))
                }),
                "textures on TEXCOORD_2 or later (read with TEXCOORD_0)",
            ),
            (document.cameras().len() > 0, "cameras (the scene's own camera is used)"),
        ];
        let mut notes: Vec<String> =
            found.into_iter().filter(|(present, _)| *present).map(|(_, text)| text.to_string()).collect();
        if !extensions.is_empty() {
            notes.push(format!("extensions {} (ignored)", extensions.join(", ")));
        }
        notes
    }
}
