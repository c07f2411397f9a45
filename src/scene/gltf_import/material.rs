//! Materials and their base-colour images: the alpha mode and factors the scene needs, and
//! PNG images decoded and resampled to the size every layer of a texture array shares.

use glam::Vec4;

use super::{describe, select, GltfFile, GltfMaterial, ImportError, Selector};

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
