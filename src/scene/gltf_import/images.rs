//! Base-colour images: found (a buffer view, a file through the sandbox, or a `data:` URI),
//! measured from their header before decoding (against [`MAX_IMAGE_DECODED_BYTES`] and the
//! host budget), decoded once per load however many materials name them, and resampled to one
//! texture layer.
//!
//! The cache ([`ImageCache`]) keys a decoded layer on the image's content (a hash of its bytes
//! and their length), and remembers which content each source held (a file by its canonical
//! path, a buffer view by its glTF file and index), so a file named a hundred times is read and
//! decoded once, and two copies of one image share their decode. A refusal is cached too.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::Cursor;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use image::{DynamicImage, GenericImageView, ImageDecoder};

use super::uri::decode_data_uri;
use super::{GltfFile, ImportError};
use crate::scene::budget::Budget;
use crate::text;
use crate::tunables::MAX_IMAGE_DECODED_BYTES;

static DECODED: AtomicU64 = AtomicU64::new(0);

/// Images decoded in this process (the tests check that a shared image is decoded once).
pub fn images_decoded() -> u64 {
    DECODED.load(Ordering::Relaxed)
}

/// (hash, length, layer size) of an image's encoded bytes.
type ContentKey = (u64, usize, u32);

/// Decoded layers of one load, by content and by source.
#[derive(Default)]
pub struct ImageCache {
    by_source: HashMap<String, ContentKey>,
    by_content: HashMap<ContentKey, Result<Rc<Vec<u8>>, String>>,
}

/// Where an image's bytes are.
enum Source<'a> {
    View(usize),
    File(PathBuf),
    Data(&'a str),
}

impl GltfFile {
    /// Image `index` (PNG only) as one `size`×`size` RGBA8 layer, through a load's cache;
    /// `budget` bounds the decoded size.
    pub fn image_layer(
        &self,
        index: usize,
        size: u32,
        cache: &mut ImageCache,
        budget: &Budget,
    ) -> Result<Vec<u8>, ImportError> {
        let what = format!("image {index}");
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
        let content = match known {
            Some(content) => content,
            None => {
                let bytes = self.image_bytes(&source, &what)?;
                let mut hasher = std::collections::hash_map::DefaultHasher::new();
                bytes.hash(&mut hasher);
                let content = (hasher.finish(), bytes.len(), size);
                if let Some(key) = source_key {
                    cache.by_source.insert(key, content);
                }
                cache.by_content.entry(content).or_insert_with(|| decode_layer(&bytes, size, budget).map(Rc::new));
                content
            }
        };
        match &cache.by_content[&content] {
            Ok(layer) => Ok(layer.as_ref().clone()),
            Err(reason) => Err(fail(reason.clone())),
        }
    }

    /// Decodes image `index` (PNG only) and resamples it, nearest texel, to `size`×`size`
    /// RGBA8, with no cache and no budget but the per-image limit.
    pub fn image_rgba(&self, index: usize, size: u32) -> Result<Vec<u8>, ImportError> {
        self.image_layer(index, size, &mut ImageCache::default(), &Budget::unlimited())
    }

    fn image_source(&self, index: usize) -> Result<Source<'_>, ImportError> {
        let fail = |reason: &str| ImportError::Image { index, origin: String::new(), reason: reason.into() };
        // Read from the JSON rather than `Image::source`, which unwraps a missing `uri` and a
        // buffer view's missing `mimeType`.
        let image = self.document.as_json().images.get(index).ok_or_else(|| fail("no such image"))?;
        match (&image.buffer_view, &image.uri) {
            (Some(view), _) => Ok(Source::View(view.value())),
            (None, Some(uri)) if uri.starts_with("data:") => Ok(Source::Data(uri)),
            (None, Some(uri)) => Ok(Source::File(self.uri_path(&format!("image {index}"), uri)?)),
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

/// Decodes a PNG after checking its decoded size from the header, and samples it to a layer.
fn decode_layer(bytes: &[u8], size: u32, budget: &Budget) -> Result<Vec<u8>, String> {
    let mut reader = image::ImageReader::new(Cursor::new(bytes)).with_guessed_format().map_err(|e| e.to_string())?;
    if reader.format() != Some(image::ImageFormat::Png) {
        return Err("only PNG images are supported".into());
    }
    // The decoder's own allocation limit, in case its header and its data disagree.
    let mut limits = image::Limits::default();
    limits.max_alloc = Some(MAX_IMAGE_DECODED_BYTES);
    reader.limits(limits);
    let decoder = reader.into_decoder().map_err(|e| e.to_string())?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err("it is empty".into());
    }
    let decoded = decoder.total_bytes();
    let described = || format!("{width}×{height} {:?} decodes to {} bytes", decoder.color_type(), text::count(decoded));
    if decoded > MAX_IMAGE_DECODED_BYTES {
        return Err(format!(
            "{}, over the limit of {} bytes for one image (every texture layer is resampled to {size}×{size}, so a \
             smaller image loses nothing)",
            described(),
            text::count(MAX_IMAGE_DECODED_BYTES)
        ));
    }
    budget.check_image(decoded, &|_| described()).map_err(|e| e.to_string())?;
    DECODED.fetch_add(1, Ordering::Relaxed);
    let image = DynamicImage::from_decoder(decoder).map_err(|e| e.to_string())?;
    Ok(sample_nearest(&image, size))
}

/// Nearest-texel resample of any image to `size`×`size` RGBA8, reading only the texels it
/// keeps (no full RGBA copy of a large image).
fn sample_nearest(image: &DynamicImage, size: u32) -> Vec<u8> {
    let (width, height) = image.dimensions();
    let mut out = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        let source_y = (y as u64 * height as u64 / size as u64) as u32;
        for x in 0..size {
            let source_x = (x as u64 * width as u64 / size as u64) as u32;
            out.extend_from_slice(&image.get_pixel(source_x, source_y).0);
        }
    }
    out
}
