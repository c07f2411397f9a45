//! Base-colour images: found (a buffer view, a file through the sandbox, or a `data:` URI),
//! measured from their header before decoding (against [`MAX_IMAGE_DECODED_BYTES`] and the
//! host budget), decoded (PNG or JPEG) once per load however many materials name them, and
//! resampled to their size class ([`textures::size_class`]) as an sRGB colour texture.
//!
//! The cache ([`ImageCache`]) keys a decoded texture on the image's content (a hash of its
//! bytes and their length) and how it is resampled, and remembers which content each source
//! held (a file by its canonical path, a buffer view by its glTF file and index), so a file
//! named a hundred times is read and decoded once, and two copies of one image share their
//! decode. A refusal is cached too.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::Cursor;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use image::{ColorType, DynamicImage, ImageDecoder, ImageFormat};

use super::uri::decode_data_uri;
use super::{GltfFile, ImportError};
use crate::scene::budget::Budget;
use crate::scene::resample;
use crate::scene::textures::{self, Filter};
use crate::scene::{Texture, TextureEncoding, Wrap};
use crate::text;
use crate::tunables::{MAX_IMAGE_DECODED_BYTES, MAX_LOAD_IMAGE_TEXELS};

static DECODED: AtomicU64 = AtomicU64::new(0);

/// Images decoded in this process (the tests check that a shared image is decoded once).
pub fn images_decoded() -> u64 {
    DECODED.load(Ordering::Relaxed)
}

/// (hash, length) of an image's encoded bytes.
type ContentKey = (u64, usize);

/// Decoded textures of one load, by content (and largest size and filter) and by source.
#[derive(Default)]
pub struct ImageCache {
    by_source: HashMap<String, ContentKey>,
    by_content: HashMap<ResampledKey, Result<Texture, String>>,
    decoded: Decoded,
}

/// An image's content resampled one way: to a largest size, with a filter, read as an encoding.
type ResampledKey = (ContentKey, u32, Filter, TextureEncoding);

/// Where an image's bytes are.
enum Source<'a> {
    View(usize),
    File(PathBuf),
    Data(&'a str),
}

impl GltfFile {
    /// Image `index` (PNG or JPEG) as an sRGB colour texture of its size class, at most
    /// `max_size` square, resampled with `filter` where its size is not the class's, through a
    /// load's cache; `budget` bounds the decoded size. The texture repeats; the caller sets
    /// the material's wrap modes.
    pub fn image_layer(
        &self,
        index: usize,
        max_size: u32,
        filter: Filter,
        cache: &mut ImageCache,
        budget: &Budget,
    ) -> Result<Texture, ImportError> {
        self.image_layer_as(index, max_size, filter, TextureEncoding::Srgb, cache, budget)
    }

    /// As [`GltfFile::image_layer`], its texels read as `encoding`: an sRGB image is
    /// resampled in linear light (decoded, filtered, encoded again), a linear one (normal maps,
    /// metallic-roughness, occlusion) as its values are.
    pub fn image_layer_as(
        &self,
        index: usize,
        max_size: u32,
        filter: Filter,
        encoding: TextureEncoding,
        cache: &mut ImageCache,
        budget: &Budget,
    ) -> Result<Texture, ImportError> {
        let what = format!("images[{index}]");
        let source = self.image_source(index)?;
        let origin = match &source {
            Source::View(view) => format!(" (buffer view {view})"),
            Source::File(_) => {
                let uri = self.document.as_json().images[index].uri.as_deref().unwrap_or_default();
                format!(" \"{}\"", super::uri::shorten(uri))
            }
            Source::Data(_) => " (a data: URI)".to_string(),
        };
        let fail = |reason: String| ImportError::Image { index, origin: origin.clone(), reason };
        let source_key = match &source {
            Source::View(view) if !self.source.as_os_str().is_empty() => {
                Some(format!("{}#bufferView{view}", self.source.display()))
            }
            Source::File(path) => Some(self.sandbox.check(path, &what)?.0.display().to_string()),
            Source::View(_) | Source::Data(_) => None,
        };
        let known = source_key.as_ref().and_then(|key| cache.by_source.get(key)).copied();
        let (content, bytes) = match known {
            Some(content) => (content, None),
            None => {
                let bytes = self.image_bytes(&source, &what)?;
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                bytes.hash(&mut hasher);
                let content = (hasher.finish(), bytes.len());
                if let Some(key) = source_key {
                    cache.by_source.insert(key, content);
                }
                (content, Some(bytes))
            }
        };
        let key = (content, max_size, filter, encoding);
        if let Entry::Vacant(entry) = cache.by_content.entry(key) {
            // Known by its source but resampled another way: read it again.
            let bytes = match bytes {
                Some(bytes) => bytes,
                None => self.image_bytes(&source, &what)?,
            };
            entry.insert(decode_texture(&bytes, max_size, filter, encoding, budget, &mut cache.decoded));
        }
        match &cache.by_content[&key] {
            // A clone shares the texels.
            Ok(texture) => Ok(texture.clone()),
            Err(reason) => Err(fail(reason.clone())),
        }
    }

    /// Decodes image `index` and resamples it to its size class, at most `size`, with no
    /// cache and no budget but the per-image limit; its RGBA8 bytes.
    pub fn image_rgba(&self, index: usize, size: u32) -> Result<Vec<u8>, ImportError> {
        let texture =
            self.image_layer(index, size, Filter::Nearest, &mut ImageCache::default(), &Budget::unlimited())?;
        Ok(texture.rgba.to_vec())
    }

    fn image_source(&self, index: usize) -> Result<Source<'_>, ImportError> {
        let fail = |reason: &str| ImportError::Image { index, origin: String::new(), reason: reason.into() };
        // Read from the JSON rather than `Image::source`, which unwraps a missing `uri` and a
        // buffer view's missing `mimeType`.
        let image = self.document.as_json().images.get(index).ok_or_else(|| fail("no such image"))?;
        match (&image.buffer_view, &image.uri) {
            (Some(view), _) => Ok(Source::View(view.value())),
            (None, Some(uri)) if uri.starts_with("data:") => Ok(Source::Data(uri)),
            (None, Some(uri)) => Ok(Source::File(self.uri_path(&format!("images[{index}]"), uri)?)),
            (None, None) => Err(fail("it has neither a uri nor a bufferView")),
        }
    }

    fn image_bytes(&self, source: &Source<'_>, what: &str) -> Result<Vec<u8>, ImportError> {
        match source {
            Source::View(view) => {
                let view = self.document.views().nth(*view).ok_or_else(|| ImportError::Corrupt {
                    what: what.to_string(),
                    reason: format!("buffer view {view} does not exist"),
                })?;
                Ok(self.view_bytes(&view, what)?.to_vec())
            }
            Source::File(path) => Ok(self.sandbox.read(path, what)?.1),
            Source::Data(uri) => Ok(decode_data_uri(what, uri)?.unwrap_or_default()),
        }
    }
}

/// What the images decoded so far in one load cost: their texels (decoding time) and the
/// bytes with mips of the textures made from them (an upper bound of the layers they become,
/// kept until upload), checked before the next image is decoded.
#[derive(Clone, Copy, Debug, Default)]
pub struct Decoded {
    pub texels: u64,
    pub texture_bytes: u64,
}

/// Decodes a PNG or JPEG after checking, from its header, its decoded size, the texels the
/// load decodes with it and the memory it needs beside the textures before it, and resamples it
/// to its size class.
fn decode_texture(
    bytes: &[u8],
    max_size: u32,
    filter: Filter,
    encoding: TextureEncoding,
    budget: &Budget,
    decoded_before: &mut Decoded,
) -> Result<Texture, String> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| format!("it could not be read ({e})"))?;
    let format = match reader.format() {
        Some(format @ (ImageFormat::Png | ImageFormat::Jpeg)) => format,
        Some(other) => {
            return Err(format!(
                "it is a {} image, and only PNG and JPEG are supported: convert it to PNG",
                other.extensions_str().first().copied().unwrap_or("another").to_uppercase()
            ))
        }
        None => {
            return Err("it is neither PNG nor JPEG (its first bytes are no image signature): convert it to PNG or \
                        JPEG, or check that the file is an image"
                .into())
        }
    };
    let name = if format == ImageFormat::Png { "PNG" } else { "JPEG" };
    let corrupt = |e: image::ImageError| format!("it is not a readable {name} ({e}): re-export the image");
    // The decoder's own allocation limit, in case its header and its data disagree.
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_IMAGE_DECODED_BYTES);
    reader.limits(limits);
    let decoder = reader.into_decoder().map_err(corrupt)?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err(format!("it is empty ({width}×{height}): replace it"));
    }
    let decoded = decoder.total_bytes();
    let colour_type = decoder.color_type();
    let described = || format!("{width}×{height} {name} {colour_type:?} decodes to {} bytes", text::count(decoded));
    let smaller = format!("scale it down to {max_size}×{max_size}, the largest texture kept, which loses nothing");
    if decoded > MAX_IMAGE_DECODED_BYTES {
        return Err(format!(
            "{}, over the limit of {} bytes for one image: {smaller}",
            described(),
            text::count(MAX_IMAGE_DECODED_BYTES)
        ));
    }
    let texels = u64::from(width) * u64::from(height);
    let load_texels = decoded_before.texels.saturating_add(texels);
    if load_texels > MAX_LOAD_IMAGE_TEXELS {
        return Err(format!(
            "a {width}×{height} {name}: with the images decoded before it, this load would decode {} texels, over \
             the limit of {} a load may decode (decoding takes time by the texel, whatever the file's size): \
             {smaller}",
            text::count(load_texels),
            text::count(MAX_LOAD_IMAGE_TEXELS)
        ));
    }
    let size = textures::size_class(width, height, max_size);
    let tiles_log2 = textures::tiles_log2(width, height, size);
    // The image at its aspect (a power of two) within the size class, then tiled to the square.
    let (to_width, to_height) = (size >> tiles_log2[0], size >> tiles_log2[1]);
    // 8-bit grey, grey-alpha, RGB and RGBA are resampled as decoded; other layouts are
    // converted to RGBA8 first.
    let native = matches!(colour_type, ColorType::L8 | ColorType::La8 | ColorType::Rgb8 | ColorType::Rgba8);
    let converted = if native { 0 } else { texels * 4 };
    let layer = textures::bytes_with_mips(size);
    let working =
        decoded + converted + resample::working_bytes(width, to_width, to_height) + u64::from(size).pow(2) * 4;
    budget
        .check_image(working, decoded_before.texture_bytes.saturating_add(layer), &|_| described())
        .map_err(|e| e.to_string())?;
    DECODED.fetch_add(1, Ordering::Relaxed);
    let image = DynamicImage::from_decoder(decoder).map_err(corrupt)?;
    let rgba8;
    let (texels_bytes, channels): (&[u8], usize) = match &image {
        DynamicImage::ImageLuma8(image) => (image.as_raw(), 1),
        DynamicImage::ImageLumaA8(image) => (image.as_raw(), 2),
        DynamicImage::ImageRgb8(image) => (image.as_raw(), 3),
        DynamicImage::ImageRgba8(image) => (image.as_raw(), 4),
        other => {
            rgba8 = other.to_rgba8();
            (rgba8.as_raw(), 4)
        }
    };
    let source = resample::Image { texels: texels_bytes, width, height, channels };
    let srgb = encoding == TextureEncoding::Srgb;
    let rgba = resample::resample(&source, to_width, to_height, filter, srgb);
    drop(image);
    let rgba = textures::tile(&rgba, to_width, to_height, size);
    decoded_before.texels = load_texels;
    decoded_before.texture_bytes = decoded_before.texture_bytes.saturating_add(layer);
    Ok(Texture { size, encoding, wrap: [Wrap::Repeat; 2], tiles_log2, rgba: rgba.into() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32, texel: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        let image = image::RgbaImage::from_fn(width, height, |x, y| image::Rgba(texel(x, y)));
        let mut bytes = Vec::new();
        image.write_to(&mut Cursor::new(&mut bytes), ImageFormat::Png).expect("encode a PNG");
        bytes
    }

    /// A black and a white texel, stretched to the smallest class: halfway between them the
    /// colour texture holds half the light (sRGB 188), the data texture half the value (128).
    #[test]
    fn colour_is_resampled_in_linear_light_and_data_as_it_is() {
        let bytes = png(2, 1, |x, _| if x == 0 { [0, 0, 0, 255] } else { [255, 255, 255, 255] });
        let budget = Budget::unlimited();
        let middle = |encoding| {
            let texture = decode_texture(&bytes, 2048, Filter::Linear, encoding, &budget, &mut Decoded::default())
                .expect("decodes");
            assert_eq!(texture.encoding, encoding);
            let row = (texture.size / 2 * texture.size) as usize * 4;
            let x = texture.size as usize / 2;
            // The two texels either side of the centre line, averaged.
            (u32::from(texture.rgba[row + (x - 1) * 4]) + u32::from(texture.rgba[row + x * 4])) / 2
        };
        let srgb = middle(TextureEncoding::Srgb);
        let linear = middle(TextureEncoding::Linear);
        assert!(srgb.abs_diff(188) <= 3, "colour: {srgb}");
        assert!(linear.abs_diff(128) <= 3, "data: {linear}");
    }
}
