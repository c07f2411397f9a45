//! `[[material]]` sections: base colour, variant and alpha cutoff, written or imported from
//! a glTF file, and their textures (generated, or imported with their wrap modes), shared by
//! content.

use std::collections::{BTreeMap, HashMap};
use std::hash::{Hash, Hasher};

use glam::{Vec3, Vec4};

use super::{invalid, short, Builder};
use crate::scene::file::finite::Finite;
use crate::scene::file::spec::{MaterialSpec, NormalTextureKind, TextureKind};
use crate::scene::file::SceneError;
use crate::scene::gltf_import::{GltfFile, GltfMaterial, GltfTexture, ImportError, Selector};
use crate::scene::textures::{self, TEXTURE_SIZE};
use crate::scene::{Material, Texture, TextureEncoding, TextureLayers, UvTransform, Variant};

/// The textures of one role, deduplicated by content (texels, encoding and wrap modes) so
/// that materials sharing a generated or imported texture share its layer.
#[derive(Default)]
pub(super) struct LayerSet {
    layers: Vec<Texture>,
    /// Layers by a hash of their content: a file of many materials stays linear, and a large
    /// texture is not kept twice as its own key.
    index: HashMap<u64, Vec<u32>>,
}

impl LayerSet {
    pub(super) fn insert(&mut self, texture: Texture) -> u32 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        texture.hash(&mut hasher);
        let same = self.index.entry(hasher.finish()).or_default();
        if let Some(&existing) = same.iter().find(|&&layer| self.layers[layer as usize] == texture) {
            return existing;
        }
        let layer = self.layers.len() as u32;
        same.push(layer);
        self.layers.push(texture);
        layer
    }

    /// Layers of the fullest GPU texture array (one per size and encoding, shared by every
    /// role) and bytes of every texture with its mip chain, for the budget.
    pub(super) fn gpu_needs(roles: &[&LayerSet]) -> (u64, u64) {
        let mut arrays: BTreeMap<_, u64> = BTreeMap::new();
        let textures = roles.iter().flat_map(|role| &role.layers);
        for texture in textures.clone() {
            *arrays.entry((texture.size, texture.encoding)).or_default() += 1;
        }
        let bytes = textures.map(|t| textures::bytes_with_mips(t.size)).sum();
        (arrays.values().copied().max().unwrap_or(0), bytes)
    }

    pub(super) fn into_layers(self) -> TextureLayers {
        TextureLayers { layers: self.layers }
    }
}

impl Builder<'_> {
    pub(super) fn add_material(&mut self, index: usize, spec: &MaterialSpec) -> Result<(), SceneError> {
        let at = self.at(&spec.name);
        let name = spec.name.get_ref();
        let shown = short(name);
        let fail = |message: String| invalid(at.clone(), format!("material \"{shown}\": {message}"));
        if name.trim().is_empty() {
            return Err(invalid(at, format!("material[{index}] has an empty name")));
        }
        if self.material_ids.contains_key(name) {
            return Err(invalid(at, format!("material \"{shown}\" is declared twice")));
        }
        if spec.material.is_some() && spec.gltf.is_none() {
            return Err(fail("`material` selects a material of a glTF file, but no gltf is given".into()));
        }
        let imported = match &spec.gltf {
            Some(path) => {
                let file = self.gltf_file(path)?;
                let gltf_error = |source| SceneError::Gltf {
                    at: at.clone(),
                    path: path.get_ref().clone(),
                    source: Box::new(source),
                };
                let material = file.material(spec.material.as_ref().map(|s| &s.0)).map_err(gltf_error)?;
                let texture = match spec.texture {
                    None => self.imported_texture(&file, &material).map_err(gltf_error)?,
                    Some(_) => None,
                };
                let normal = match spec.normal_texture {
                    None => self.imported_normal(&file, &material).map_err(gltf_error)?,
                    Some(_) => None,
                };
                let pbr = self.imported_pbr_textures(&file, &material).map_err(gltf_error)?;
                Some((material, texture, normal, pbr))
            }
            None => None,
        };

        let base_color = match &spec.base_color {
            Some(components) => {
                let rgba = match components.0.as_slice() {
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
            None => imported.as_ref().map_or(Vec4::ONE, |(m, ..)| m.base_color),
        };
        let variant = match (spec.variant, &imported) {
            (Some(variant), _) => variant.into(),
            (None, Some((m, ..))) => imported_variant(m),
            (None, None) => Variant::Opaque,
        };
        let alpha_cutoff =
            spec.alpha_cutoff.map(|cutoff| cutoff.0).or(imported.as_ref().map(|(m, ..)| m.alpha_cutoff)).unwrap_or(0.5);
        if !(0.0..=1.0).contains(&alpha_cutoff) {
            return Err(fail(format!("alpha_cutoff must be between 0 and 1, got {alpha_cutoff}")));
        }
        if spec.alpha_cutoff.is_some() && variant != Variant::Masked {
            return Err(fail(format!(
                "alpha_cutoff only matters for variant = \"masked\", and this material is \"{}\"",
                variant.name()
            )));
        }
        let (imported, imported_texture, imported_normal, pbr) = match imported {
            Some((material, texture, normal, pbr)) => (Some(material), texture, normal, pbr),
            None => (None, None, None, PbrLayers::default()),
        };
        let double_sided = match spec.double_sided {
            Some(_) if variant != Variant::Blend => {
                return Err(fail(format!(
                    "double_sided only matters for variant = \"blend\" (the others say it by their variant: \
                     \"double-sided\"), and this material is \"{}\"",
                    variant.name()
                )))
            }
            Some(on) => on,
            None => variant == Variant::Blend && imported.as_ref().is_some_and(|m| m.double_sided),
        };
        let mut material = Material { variant, alpha_cutoff, double_sided, ..Material::colored(name, base_color) };
        pbr.apply(&mut material);
        match (spec.texture, imported_texture) {
            (Some(kind), _) => {
                material.base_color_layer = Some(self.base_color_layers.insert(procedural_texture(kind)))
            }
            (None, Some(texture)) => {
                material.base_color_layer = Some(self.base_color_layers.insert(texture));
                material.base_color_uv = imported.as_ref().map_or_else(Default::default, |m| m.base_color_uv);
            }
            (None, None) => {}
        }
        match (spec.normal_texture, imported_normal) {
            (Some(NormalTextureKind::Bumps), _) => {
                let bumps = Texture::linear(TEXTURE_SIZE, textures::bumps(TEXTURE_SIZE));
                material.normal_layer = Some(self.normal_layers.insert(bumps));
            }
            (None, Some(texture)) => {
                material.normal_layer = Some(self.normal_layers.insert(texture));
                if let Some(imported) = &imported {
                    (material.normal_uv, material.normal_scale) = (imported.normal_uv, imported.normal_scale);
                }
            }
            (None, None) => {}
        }
        let unit = |key: &str, value: Option<&Finite<f32>>, imported: Option<f32>, default: f32| {
            let value = value.map(|v| v.0).or(imported).unwrap_or(default);
            if (0.0..=1.0).contains(&value) {
                Ok(value)
            } else {
                Err(fail(format!("{key} must be between 0 and 1, got {value}")))
            }
        };
        material.metallic = unit("metallic", spec.metallic.as_ref(), imported.as_ref().map(|m| m.metallic), 0.0)?;
        material.roughness = unit("roughness", spec.roughness.as_ref(), imported.as_ref().map(|m| m.roughness), 0.5)?;
        const MOST: f32 = 1000.0;
        let emissive = spec.emissive.as_ref().map(|e| Vec3::from(e.0));
        if emissive.is_some_and(|e| e.min_element() < 0.0 || e.max_element() > MOST) {
            return Err(fail(format!("emissive {} is outside [0, {MOST}] (linear RGB)", emissive.unwrap_or_default())));
        }
        let strength = spec.emissive_strength.as_ref().map_or(1.0, |s| s.0);
        if !(0.0..=MOST).contains(&strength) {
            return Err(fail(format!("emissive_strength {strength} is outside [0, {MOST}]")));
        }
        if spec.emissive_strength.is_some() && emissive.is_none() && imported.is_none() {
            return Err(fail(
                "emissive_strength multiplies emissive = [r, g, b], which this material does not give".into(),
            ));
        }
        material.emissive = match emissive {
            Some(emissive) => emissive * strength,
            None => imported.as_ref().map_or(Vec3::ZERO, |m| m.emissive * strength),
        };
        material.unlit = spec.unlit.or(imported.as_ref().map(|m| m.unlit)).unwrap_or(false);
        self.material_ids.insert(name.clone(), self.materials.len() as u32);
        self.materials.push(material);
        Ok(())
    }
}

/// A generated colour texture, its linear values stored sRGB-encoded.
fn procedural_texture(kind: TextureKind) -> Texture {
    let rgba = match kind {
        TextureKind::Lattice => textures::lattice(TEXTURE_SIZE),
        TextureKind::Checker => textures::checker(TEXTURE_SIZE),
        TextureKind::Noise => textures::noise(TEXTURE_SIZE),
    };
    textures::colour_texture(TEXTURE_SIZE, rgba)
}

impl Builder<'_> {
    /// Registers glTF material `index` of `file` (`None`: the glTF default material, opaque
    /// white) as a scene material named `name`, as `[[material]] gltf` would import it with no
    /// key overridden; returns its id. A model's parts get their materials here.
    pub(super) fn gltf_material(
        &mut self,
        file: &GltfFile,
        index: Option<usize>,
        name: &str,
        at: &str,
        path: &str,
    ) -> Result<u32, SceneError> {
        let gltf_error = |source| SceneError::Gltf { at: at.to_string(), path: short(path), source: Box::new(source) };
        let material = match index {
            Some(index) => file.material(Some(&Selector::Index(index))).map_err(gltf_error)?,
            None => GltfMaterial::gltf_default(),
        };
        let texture = self.imported_texture(file, &material).map_err(gltf_error)?;
        let normal = self.imported_normal(file, &material).map_err(gltf_error)?;
        let pbr = self.imported_pbr_textures(file, &material).map_err(gltf_error)?;
        if !(0.0..=1.0).contains(&material.alpha_cutoff) {
            return Err(invalid(
                at,
                format!(
                    "material \"{}\": alpha_cutoff must be between 0 and 1, got {}",
                    short(name),
                    material.alpha_cutoff
                ),
            ));
        }
        let mut imported = Material {
            base_color_layer: texture.map(|texture| self.base_color_layers.insert(texture)),
            normal_layer: normal.map(|texture| self.normal_layers.insert(texture)),
            variant: imported_variant(&material),
            alpha_cutoff: material.alpha_cutoff,
            double_sided: material.blended && material.double_sided,
            base_color_uv: material.base_color_uv,
            normal_uv: material.normal_uv,
            normal_scale: material.normal_scale,
            metallic: material.metallic,
            roughness: material.roughness,
            emissive: material.emissive,
            unlit: material.unlit,
            ..Material::colored(name, material.base_color)
        };
        pbr.apply(&mut imported);
        self.materials.push(imported);
        Ok(self.materials.len() as u32 - 1)
    }

    /// An imported material's base-colour texture at its size class, with its sampler's wrap
    /// modes.
    fn imported_texture(&mut self, file: &GltfFile, material: &GltfMaterial) -> Result<Option<Texture>, ImportError> {
        let Some(image) = material.base_color_image else { return Ok(None) };
        let texture = GltfTexture { image, sampling: material.base_color_sampling, uv: material.base_color_uv };
        self.imported_image(file, &texture, TextureEncoding::Srgb).map(Some)
    }

    /// An imported material's normal map: like its base-colour texture, but the data linear.
    fn imported_normal(&mut self, file: &GltfFile, material: &GltfMaterial) -> Result<Option<Texture>, ImportError> {
        let Some(image) = material.normal_image else { return Ok(None) };
        let texture = GltfTexture { image, sampling: material.normal_sampling, uv: material.normal_uv };
        self.imported_image(file, &texture, TextureEncoding::Linear).map(Some)
    }
}

/// An imported material's metallic-roughness, occlusion and emissive textures, as layers.
#[derive(Default)]
struct PbrLayers {
    metallic_roughness: Option<(u32, UvTransform)>,
    occlusion: Option<(u32, UvTransform, f32)>,
    emissive: Option<(u32, UvTransform)>,
}

impl PbrLayers {
    fn apply(&self, material: &mut Material) {
        if let Some((layer, uv)) = self.metallic_roughness {
            (material.metallic_roughness_layer, material.metallic_roughness_uv) = (Some(layer), uv);
        }
        if let Some((layer, uv, strength)) = self.occlusion {
            (material.occlusion_layer, material.occlusion_uv, material.occlusion_strength) =
                (Some(layer), uv, strength);
        }
        if let Some((layer, uv)) = self.emissive {
            (material.emissive_layer, material.emissive_uv) = (Some(layer), uv);
        }
    }
}

impl Builder<'_> {
    /// One imported texture of a material at its size class, with its sampler's wrap modes
    /// and the given encoding.
    fn imported_image(
        &mut self,
        file: &GltfFile,
        texture: &GltfTexture,
        encoding: TextureEncoding,
    ) -> Result<Texture, ImportError> {
        let budget = self.options.budget;
        let sampling = texture.sampling;
        let image = file.image_layer_as(
            texture.image,
            budget.largest_texture(),
            sampling.filter,
            encoding,
            &mut self.images,
            budget,
        )?;
        Ok(Texture { wrap: sampling.wrap, ..image })
    }

    /// An imported material's metallic-roughness and occlusion textures (linear layers, shared
    /// where they are one image, as in an ORM texture) and its emissive texture (sRGB).
    fn imported_pbr_textures(&mut self, file: &GltfFile, material: &GltfMaterial) -> Result<PbrLayers, ImportError> {
        let mut layers = PbrLayers::default();
        if let Some(texture) = &material.metallic_roughness_texture {
            let image = self.imported_image(file, texture, TextureEncoding::Linear)?;
            layers.metallic_roughness = Some((self.normal_layers.insert(image), texture.uv));
        }
        if let Some(texture) = &material.occlusion_texture {
            let image = self.imported_image(file, texture, TextureEncoding::Linear)?;
            layers.occlusion = Some((self.normal_layers.insert(image), texture.uv, material.occlusion_strength));
        }
        if let Some(texture) = &material.emissive_texture {
            let image = self.imported_image(file, texture, TextureEncoding::Srgb)?;
            layers.emissive = Some((self.base_color_layers.insert(image), texture.uv));
        }
        Ok(layers)
    }
}

/// The pipeline variant an imported material asks for by its alpha mode and sidedness.
fn imported_variant(material: &GltfMaterial) -> Variant {
    if material.blended {
        Variant::Blend
    } else if material.masked {
        Variant::Masked
    } else if material.double_sided {
        Variant::DoubleSided
    } else {
        Variant::Opaque
    }
}
