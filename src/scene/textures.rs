//! Textures on the CPU: the procedural layers (the stress scene's lattice and bumps, and the
//! checker and noise a scene file may ask for), the size classes every texture is fitted to,
//! and the mip chain made for each at upload.
//!
//! A texture is a square power of two from [`SMALLEST_TEXTURE_CLASS`] to
//! [`LARGEST_TEXTURE_CLASS`] (capped by the adapter's `max_texture_dimension_2d`): the GPU
//! keeps one texture array per size class and encoding, so the layers of one array share a
//! size, and an image is resampled to the smallest class that holds its larger side. Base
//! colour is always sRGB and normal maps always linear (each role has its own arrays). The
//! generated colour textures are [`TEXTURE_SIZE`] and their values were chosen as linear
//! values (the checker's grey 150 meant 0.588), so [`colour_texture`] stores them
//! sRGB-encoded (150 becomes 201), which the sampler decodes back to within rounding: they
//! look as they did before colour textures were sRGB.
//!
//! Mips halve each level with a 2 × 2 box filter, in linear light for sRGB textures (an
//! sRGB average of a black-and-white checker would be 50% too dark, 128 instead of 188), alpha
//! and linear data as stored.

use glam::Vec3;

use super::{Texture, TextureEncoding, Wrap};
use crate::mesh::procedural;
use crate::tunables::{LARGEST_TEXTURE_CLASS, SMALLEST_TEXTURE_CLASS};

/// Edge of every generated texture: the smallest size class.
pub const TEXTURE_SIZE: u32 = SMALLEST_TEXTURE_CLASS;

/// A base-colour texture from linear RGBA8 values: RGB stored sRGB-encoded, alpha as is.
pub fn colour_texture(size: u32, linear_rgba: Vec<u8>) -> Texture {
    let mut rgba = linear_rgba;
    for texel in rgba.chunks_exact_mut(4) {
        for channel in &mut texel[..3] {
            *channel = linear_to_srgb(*channel as f32 / 255.0);
        }
    }
    Texture { size, encoding: TextureEncoding::Srgb, wrap: [Wrap::Repeat; 2], tiles_log2: [0; 2], rgba: rgba.into() }
}

/// How an image is resampled to its size class (from the glTF sampler's `magFilter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Filter {
    /// Each texel the nearest source texel: pixel art stays crisp when scaled up.
    Nearest,
    #[default]
    Linear,
}

/// How a material samples its texture: the wrap modes (u, v) and the filter its image is
/// resampled with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Sampling {
    pub wrap: [Wrap; 2],
    pub filter: Filter,
}

/// The size class of an image `width`×`height`: the power of two at or above its larger side,
/// at least [`SMALLEST_TEXTURE_CLASS`], at most `max_size` (itself at most
/// [`LARGEST_TEXTURE_CLASS`] where the adapter allows it).
pub fn size_class(width: u32, height: u32, max_size: u32) -> u32 {
    width.max(height).max(SMALLEST_TEXTURE_CLASS).checked_next_power_of_two().unwrap_or(u32::MAX).min(max_size)
}

/// How many copies (log2, per axis) of a `width` × `height` image a layer of `size` holds when
/// the image keeps its aspect: the ratio of its sides rounded to the nearest power of two, on
/// its shorter axis, as far as that axis keeps one texel (`Texture::tiles_log2`).
pub fn tiles_log2(width: u32, height: u32, size: u32) -> [u32; 2] {
    let (long, short) = (width.max(height) as f64, width.min(height).max(1) as f64);
    let k = ((long / short).log2().round() as u32).min(size.max(1).ilog2());
    if width >= height {
        [0, k]
    } else {
        [k, 0]
    }
}

/// `width` × `height` RGBA8 texels (`rgba`) repeated to fill `size` × `size` (each a power of
/// two dividing `size`).
pub fn tile(rgba: &[u8], width: u32, height: u32, size: u32) -> Vec<u8> {
    if (width, height) == (size, size) {
        return rgba.to_vec();
    }
    let row = width as usize * 4;
    let mut out = Vec::with_capacity(size as usize * size as usize * 4);
    for y in 0..size as usize {
        let source = &rgba[(y % height as usize) * row..][..row];
        for _ in 0..size / width {
            out.extend_from_slice(source);
        }
    }
    out
}

/// The largest size class on an adapter whose `max_texture_dimension_2d` is `max_dimension`
/// (a power of two at or below it).
pub fn largest_class(max_dimension: u64) -> u32 {
    let cap = max_dimension.clamp(1, LARGEST_TEXTURE_CLASS as u64) as u32;
    1 << cap.ilog2()
}

/// Mip levels of a `size`×`size` texture, down to 1×1.
pub fn mip_levels(size: u32) -> u32 {
    size.max(1).ilog2() + 1
}

/// Bytes of a `size`×`size` RGBA8 texture with its whole mip chain.
pub fn bytes_with_mips(size: u32) -> u64 {
    (0..mip_levels(size)).map(|level| ((size >> level).max(1) as u64).pow(2) * 4).sum()
}

/// Levels 1.. of a texture's mip chain (level 0 is `texture.rgba`), each half the one before.
pub fn mip_chain(texture: &Texture) -> Vec<Vec<u8>> {
    let srgb = texture.encoding == TextureEncoding::Srgb;
    let mut levels: Vec<Vec<u8>> = Vec::new();
    let mut size = texture.size;
    while size > 1 {
        let source: &[u8] = levels.last().map_or(&texture.rgba, |level| level.as_slice());
        let half = size / 2;
        let mut out = Vec::with_capacity((half * half * 4) as usize);
        for y in 0..half {
            for x in 0..half {
                let texel = |dx: u32, dy: u32| (((2 * y + dy) * size + 2 * x + dx) * 4) as usize;
                let corners = [texel(0, 0), texel(1, 0), texel(0, 1), texel(1, 1)];
                for channel in 0..4 {
                    let values = corners.map(|at| source[at + channel]);
                    out.push(if srgb && channel < 3 { average_srgb(values) } else { average(values) });
                }
            }
        }
        levels.push(out);
        size = half;
    }
    levels
}

fn average(values: [u8; 4]) -> u8 {
    ((values.iter().map(|&v| v as u32).sum::<u32>() + 2) / 4) as u8
}

fn average_srgb(values: [u8; 4]) -> u8 {
    let linear = values.iter().map(|&v| srgb_to_linear(v)).sum::<f32>() / 4.0;
    linear_to_srgb(linear)
}

/// The linear value of an sRGB-encoded byte (the GPU's decode of an `Rgba8UnormSrgb` texel).
pub fn srgb_to_linear(value: u8) -> f32 {
    let c = value as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The sRGB byte of a linear value in [0, 1], rounded.
pub fn linear_to_srgb(value: f32) -> u8 {
    let c = value.clamp(0.0, 1.0);
    let encoded = if c <= 0.003_130_8 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (encoded * 255.0 + 0.5) as u8
}

/// A white lattice with transparent holes, for the masked variant.
pub fn lattice(size: u32) -> Vec<u8> {
    let cell = (size / 8).max(1);
    (0..size * size)
        .flat_map(|i| {
            let (x, y) = (i % size, i / size);
            let bar = x % cell < cell / 3 || y % cell < cell / 3;
            if bar {
                [255, 255, 255, 255]
            } else {
                [255, 255, 255, 0]
            }
        })
        .collect()
}

/// A tangent-space normal map of soft bumps.
pub fn bumps(size: u32) -> Vec<u8> {
    (0..size * size)
        .flat_map(|i| {
            let (x, y) = ((i % size) as f32 / size as f32, (i / size) as f32 / size as f32);
            let (dx, dy) = ((x * 25.0).sin() * 0.35, (y * 25.0).cos() * 0.35);
            let n = Vec3::new(dx, dy, 1.0).normalize();
            [(n.x * 127.5 + 127.5) as u8, (n.y * 127.5 + 127.5) as u8, (n.z * 127.5 + 127.5) as u8, 255]
        })
        .collect()
}

/// An opaque checkerboard of 8 × 8 white and grey cells.
pub fn checker(size: u32) -> Vec<u8> {
    let cell = (size / 8).max(1);
    (0..size * size)
        .flat_map(|i| {
            let (x, y) = (i % size, i / size);
            if (x / cell + y / cell).is_multiple_of(2) {
                [255, 255, 255, 255]
            } else {
                [150, 150, 150, 255]
            }
        })
        .collect()
}

/// Opaque grey value noise in two octaves: coarse blotches with fine grain on top.
pub fn noise(size: u32) -> Vec<u8> {
    (0..size * size)
        .flat_map(|i| {
            let (x, y) = (i % size, i / size);
            let coarse = procedural::hash01((x / 8) * 977 + (y / 8) * 131 + 17);
            let fine = procedural::hash01(x * 7919 + y * 104_729 + 3);
            let v = (150.0 + 70.0 * coarse + 35.0 * fine).min(255.0) as u8;
            [v, v, v, 255]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_hold_the_larger_side() {
        assert_eq!(size_class(1, 1, 2048), 64);
        assert_eq!(size_class(64, 10, 2048), 64);
        assert_eq!(size_class(65, 10, 2048), 128);
        assert_eq!(size_class(300, 1000, 2048), 1024);
        assert_eq!(size_class(5000, 10, 2048), 2048);
        assert_eq!(size_class(5000, 10, 1024), 1024);
        assert_eq!(largest_class(16384), 2048);
        assert_eq!(largest_class(1500), 1024);
        assert_eq!(bytes_with_mips(4), (16 + 4 + 1) * 4);
    }

    #[test]
    fn srgb_mips_average_in_linear_light() {
        let rgba = [[0u8, 0, 0, 255], [255, 255, 255, 255], [255, 255, 255, 255], [0, 0, 0, 255]].concat();
        let mut texture = Texture {
            size: 2,
            encoding: TextureEncoding::Srgb,
            wrap: [Wrap::Repeat; 2],
            tiles_log2: [0; 2],
            rgba: rgba.into(),
        };
        assert_eq!(mip_chain(&texture), vec![vec![188, 188, 188, 255]]);
        texture.encoding = TextureEncoding::Linear;
        assert_eq!(mip_chain(&texture), vec![vec![128, 128, 128, 255]]);
        for value in 0..=255u8 {
            assert_eq!(linear_to_srgb(srgb_to_linear(value)), value);
        }
    }
}
