//! Materials: the alpha mode, factors, base-colour image and its sampler's wrap modes and
//! filter that the scene needs (the images themselves are [`super::images`]'s).

use glam::Vec4;
use gltf::texture::{MagFilter, WrappingMode};

use super::{describe, select, GltfFile, GltfMaterial, ImportError, Selector};
use crate::scene::textures::{Filter, Sampling};
use crate::scene::Wrap;

impl GltfMaterial {
    /// The material glTF gives a primitive that names none: opaque white, single-sided.
    pub fn gltf_default() -> Self {
        GltfMaterial {
            name: None,
            base_color: Vec4::ONE,
            base_color_image: None,
            base_color_sampling: Default::default(),
            masked: false,
            alpha_cutoff: 0.5,
            double_sided: false,
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
            base_color_sampling: pbr
                .base_color_texture()
                .map(|info| sampling(&info.texture().sampler()))
                .unwrap_or_default(),
            // BLEND is drawn as MASK at its cutoff (there is no blended variant);
            // `GltfFile::unsupported` says so once per file.
            masked: material.alpha_mode() != gltf::material::AlphaMode::Opaque,
            alpha_cutoff: material.alpha_cutoff().unwrap_or(0.5),
            double_sided: material.double_sided(),
        })
    }
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
