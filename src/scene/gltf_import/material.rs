//! Materials: the alpha mode, factors, base-colour image and its sampler's wrap modes and
//! filter that the scene needs (the images themselves are [`super::images`]'s).

use glam::{Vec2, Vec4};
use gltf::texture::{MagFilter, WrappingMode};

use super::{describe, select, GltfFile, GltfMaterial, GltfTexture, ImportError, Selector};
use crate::scene::textures::{Filter, Sampling};
use crate::scene::{UvTransform, Wrap};

impl GltfMaterial {
    /// The material glTF gives a primitive that names none: opaque white, single-sided.
    pub fn gltf_default() -> Self {
        GltfMaterial {
            name: None,
            base_color: Vec4::ONE,
            base_color_image: None,
            base_color_sampling: Default::default(),
            base_color_uv: UvTransform::default(),
            normal_image: None,
            normal_sampling: Default::default(),
            normal_uv: UvTransform::default(),
            normal_scale: 1.0,
            masked: false,
            blended: false,
            alpha_cutoff: 0.5,
            double_sided: false,
            metallic_roughness_texture: None,
            occlusion_texture: None,
            occlusion_strength: 1.0,
            emissive_texture: None,
            metallic: 1.0,
            roughness: 1.0,
            emissive: glam::Vec3::ZERO,
            unlit: false,
        }
    }
}

impl GltfFile {
    /// One material's base colour, texture and alpha mode.
    pub fn material(&self, selector: Option<&Selector>) -> Result<GltfMaterial, ImportError> {
        let names: Vec<Option<&str>> = self.document.materials().map(|m| m.name()).collect();
        let index = select("material", selector, &names)?;
        let material = self.document.materials().nth(index).expect("select returns an index in range");
        let pbr = material.pbr_metallic_roughness();
        let base_color = Vec4::from(pbr.base_color_factor());
        // glTF: four numbers between 0 and 1, as a scene file's base_color must be.
        if !base_color.is_finite() || base_color.min_element() < 0.0 || base_color.max_element() > 1.0 {
            return Err(ImportError::Corrupt {
                what: format!("material {}", describe(index, names[index])),
                reason: format!(
                    "its pbrMetallicRoughness.baseColorFactor {:?} is not four numbers between 0 and 1",
                    base_color.to_array()
                ),
            });
        }
        let what = || format!("material {}", describe(index, names[index]));
        let base = pbr.base_color_texture();
        let base_color_uv = match &base {
            Some(info) => {
                uv_transform(info.tex_coord(), info.extension_value(TEXTURE_TRANSFORM), &what, "baseColorTexture")?
            }
            None => UvTransform::default(),
        };
        let normal = material.normal_texture();
        let normal_uv = match &normal {
            Some(info) => {
                uv_transform(info.tex_coord(), info.extension_value(TEXTURE_TRANSFORM), &what, "normalTexture")?
            }
            None => UvTransform::default(),
        };
        let normal_scale = normal.as_ref().map_or(1.0, |n| n.scale());
        if !normal_scale.is_finite() {
            return Err(ImportError::Corrupt { what: what(), reason: "its normalTexture scale is not finite".into() });
        }
        let unit = |value: f32, key: &str| {
            if (0.0..=1.0).contains(&value) {
                Ok(value)
            } else {
                Err(ImportError::Corrupt { what: what(), reason: format!("its {key} {value} is not between 0 and 1") })
            }
        };
        let metallic = unit(pbr.metallic_factor(), "metallicFactor")?;
        let roughness = unit(pbr.roughness_factor(), "roughnessFactor")?;
        let emissive = glam::Vec3::from(material.emissive_factor());
        if !emissive.is_finite() || emissive.min_element() < 0.0 {
            return Err(ImportError::Corrupt {
                what: what(),
                reason: format!("its emissiveFactor {emissive} is not non-negative"),
            });
        }
        let strength = match material.extension_value(EMISSIVE_STRENGTH) {
            None => 1.0,
            Some(extension) => extension
                .get("emissiveStrength")
                .map_or(Some(1.0), serde_json::Value::as_f64)
                .map(|s| s as f32)
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| ImportError::Corrupt {
                    what: format!("{} {EMISSIVE_STRENGTH}", what()),
                    reason: "emissiveStrength must be a non-negative number".into(),
                })?,
        };
        // A texture reference (an Info, or the occlusion texture's own type) as the scene takes it.
        let texture = |texture: gltf::Texture, tex_coord: u32, extension: Option<&serde_json::Value>, role: &str| {
            Ok::<_, ImportError>(GltfTexture {
                image: texture.source().index(),
                sampling: sampling(&texture.sampler()),
                uv: uv_transform(tex_coord, extension, &what, role)?,
            })
        };
        let info = |info: Option<gltf::texture::Info>, role: &str| {
            info.map(|i| texture(i.texture(), i.tex_coord(), i.extension_value(TEXTURE_TRANSFORM), role)).transpose()
        };
        let metallic_roughness_texture = info(pbr.metallic_roughness_texture(), "metallicRoughnessTexture")?;
        let emissive_texture = info(material.emissive_texture(), "emissiveTexture")?;
        let occlusion = material.occlusion_texture();
        let occlusion_strength = occlusion.as_ref().map_or(1.0, |o| o.strength());
        if !(0.0..=1.0).contains(&occlusion_strength) {
            return Err(ImportError::Corrupt {
                what: what(),
                reason: format!("its occlusionTexture strength {occlusion_strength} is not between 0 and 1"),
            });
        }
        let occlusion_texture = occlusion
            .map(|o| texture(o.texture(), o.tex_coord(), o.extension_value(TEXTURE_TRANSFORM), "occlusionTexture"))
            .transpose()?;
        Ok(GltfMaterial {
            metallic_roughness_texture,
            occlusion_texture,
            occlusion_strength,
            emissive_texture,
            metallic,
            roughness,
            emissive: emissive * strength,
            unlit: material.extension_value(UNLIT).is_some(),
            name: material.name().map(str::to_string),
            base_color,
            base_color_image: base.as_ref().map(|info| info.texture().source().index()),
            base_color_sampling: base.as_ref().map(|info| sampling(&info.texture().sampler())).unwrap_or_default(),
            base_color_uv,
            normal_image: normal.as_ref().map(|info| info.texture().source().index()),
            normal_sampling: normal.as_ref().map(|info| sampling(&info.texture().sampler())).unwrap_or_default(),
            normal_uv,
            normal_scale,
            masked: material.alpha_mode() == gltf::material::AlphaMode::Mask,
            blended: material.alpha_mode() == gltf::material::AlphaMode::Blend,
            alpha_cutoff: material.alpha_cutoff().unwrap_or(0.5),
            double_sided: material.double_sided(),
        })
    }
}

/// The largest texture-transform offset or scale accepted.
const MAX_UV_TRANSFORM: f32 = 65_536.0;

/// `KHR_texture_transform`: read from the extension object the `gltf` crate keeps as it is.
pub(super) const TEXTURE_TRANSFORM: &str = "KHR_texture_transform";
/// `KHR_materials_unlit`: the material is drawn without light.
pub(super) const UNLIT: &str = "KHR_materials_unlit";
/// `KHR_materials_emissive_strength`: a multiplier of `emissiveFactor`.
pub(super) const EMISSIVE_STRENGTH: &str = "KHR_materials_emissive_strength";

/// A texture reference's coordinate set and transform: `tex_coord` (the textureInfo's), then
/// the `KHR_texture_transform` object if there is one (its `texCoord` overrides). Sets past
/// `TEXCOORD_1` read `TEXCOORD_0` (`GltfFile::unsupported` names them).
pub(super) fn uv_transform(
    tex_coord: u32,
    extension: Option<&serde_json::Value>,
    what: &dyn Fn() -> String,
    role: &str,
) -> Result<UvTransform, ImportError> {
    let corrupt =
        |reason: String| ImportError::Corrupt { what: format!("{} {role} {TEXTURE_TRANSFORM}", what()), reason };
    let mut transform = UvTransform { set: tex_coord, ..UvTransform::default() };
    if let Some(extension) = extension {
        let object = extension.as_object().ok_or_else(|| corrupt("it is not an object".into()))?;
        let pair = |key: &str, default: Vec2| -> Result<Vec2, ImportError> {
            match object.get(key) {
                None => Ok(default),
                Some(value) => value
                    .as_array()
                    .filter(|a| a.len() == 2)
                    .and_then(|a| Some(Vec2::new(a[0].as_f64()? as f32, a[1].as_f64()? as f32)))
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| corrupt(format!("{key} must be two finite numbers"))),
            }
        };
        transform.offset = pair("offset", Vec2::ZERO)?;
        transform.scale = pair("scale", Vec2::ONE)?;
        // Past this, 32-bit texture coordinates cannot tell one texel of a 256-texel image from
        // the next: the texture would render as noise or one colour.
        for (key, value) in [("offset", transform.offset), ("scale", transform.scale)] {
            if value.abs().max_element() > MAX_UV_TRANSFORM {
                return Err(corrupt(format!(
                    "{key} {:?} is beyond ±{MAX_UV_TRANSFORM}, where 32-bit texture coordinates lose the texels",
                    value.to_array()
                )));
            }
        }
        transform.rotation = match object.get("rotation") {
            None => 0.0,
            Some(value) => value
                .as_f64()
                .map(|r| r as f32)
                .filter(|r| r.is_finite())
                .ok_or_else(|| corrupt("rotation must be a finite number".into()))?,
        };
        if let Some(value) = object.get("texCoord") {
            transform.set = value
                .as_u64()
                .and_then(|s| u32::try_from(s).ok())
                .ok_or_else(|| corrupt("texCoord must be a non-negative integer".into()))?;
        }
    }
    if transform.set > 1 {
        transform.set = 0;
    }
    Ok(transform)
}

/// A glTF sampler as the engine honours it: both wrap modes, and `magFilter` as the filter the
/// image is resampled to its size class with (the GPU always samples trilinearly: `minFilter`
/// is not honoured).
fn sampling(sampler: &gltf::texture::Sampler) -> Sampling {
    let wrap = |mode| match mode {
        WrappingMode::Repeat => Wrap::Repeat,
        WrappingMode::ClampToEdge => Wrap::ClampToEdge,
        WrappingMode::MirroredRepeat => Wrap::MirroredRepeat,
    };
    let filter = match sampler.mag_filter() {
        Some(MagFilter::Nearest) => Filter::Nearest,
        Some(MagFilter::Linear) | None => Filter::Linear,
    };
    Sampling { wrap: [wrap(sampler.wrap_s()), wrap(sampler.wrap_t())], filter }
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
