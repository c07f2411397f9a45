//! An image resampled to the aspect it keeps in its layer: separable weights per axis (a box
//! over each output texel's footprint where the image shrinks, linear interpolation between
//! the two nearest texels where it grows, the nearest texel for pixel art), in linear light for
//! sRGB colour and as stored for data and alpha.
//!
//! It reads the decoder's own texel layout (grey, grey and alpha, RGB or RGBA, 8 bits a
//! channel) one source row at a time, so a large greyscale image is never expanded to RGBA,
//! let alone to 16 bytes of floats a texel: what it holds beside the decoded image is one row
//! of floats and the output's accumulator, `to_width × to_height` texels of four floats.

use super::textures::{linear_to_srgb, srgb_to_linear, Filter};

/// Decoded texels, 8 bits a channel, rows top to bottom without padding.
#[derive(Clone, Copy, Debug)]
pub struct Image<'a> {
    pub texels: &'a [u8],
    pub width: u32,
    pub height: u32,
    /// 1 (grey), 2 (grey, alpha), 3 (RGB) or 4 (RGBA).
    pub channels: usize,
}

impl Image<'_> {
    /// Texel `x` of row `y` as RGBA8.
    fn rgba(&self, row: &[u8], x: usize) -> [u8; 4] {
        let t = &row[x * self.channels..][..self.channels];
        match self.channels {
            1 => [t[0], t[0], t[0], 255],
            2 => [t[0], t[0], t[0], t[1]],
            3 => [t[0], t[1], t[2], 255],
            _ => [t[0], t[1], t[2], t[3]],
        }
    }

    fn row(&self, y: usize) -> &[u8] {
        let stride = self.width as usize * self.channels;
        &self.texels[y * stride..][..stride]
    }

    /// The image as RGBA8 at its own size.
    pub fn to_rgba(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.width as usize * self.height as usize * 4);
        for y in 0..self.height as usize {
            let row = self.row(y);
            (0..self.width as usize).for_each(|x| out.extend(self.rgba(row, x)));
        }
        out
    }
}

/// Bytes [`resample`] holds beside the decoded image while it works: its accumulator, its
/// output and one row of floats.
pub fn working_bytes(width: u32, to_width: u32, to_height: u32) -> u64 {
    let out = u64::from(to_width) * u64::from(to_height);
    out * 16 + out * 4 + u64::from(width) * 16
}

/// `image` resampled to `to_width` × `to_height` RGBA8 with `filter`; sRGB colour (`srgb`)
/// is filtered in linear light (an average of encoded values darkens every edge between
/// colours: a black-and-white texel pair is 0.5 encoded, 0.21 in light), alpha and data as
/// stored.
pub fn resample(image: &Image<'_>, to_width: u32, to_height: u32, filter: Filter, srgb: bool) -> Vec<u8> {
    if (image.width, image.height) == (to_width, to_height) {
        return image.to_rgba();
    }
    // The nearest texel is copied, not filtered: no conversion to light and back.
    let srgb = srgb && filter == Filter::Linear;
    let decode: [[f32; 256]; 2] = [
        std::array::from_fn(|v| v as f32 / 255.0),
        std::array::from_fn(|v| if srgb { srgb_to_linear(v as u8) } else { v as f32 / 255.0 }),
    ];
    let columns = weights(image.width, to_width, filter);
    let rows = weights(image.height, to_height, filter);
    // For each source row, the output rows it feeds and with what weight.
    let mut feeds: Vec<Vec<(u32, f32)>> = vec![Vec::new(); image.height as usize];
    for (y, taps) in rows.iter().enumerate() {
        for &(source, weight) in taps {
            feeds[source as usize].push((y as u32, weight));
        }
    }
    let (to_w, to_h) = (to_width as usize, to_height as usize);
    let mut accumulator = vec![0.0f32; to_w * to_h * 4];
    let mut light = vec![[0.0f32; 4]; image.width as usize];
    let mut row_out = vec![[0.0f32; 4]; to_w];
    for (y, feeds) in feeds.iter().enumerate() {
        if feeds.is_empty() {
            continue;
        }
        let row = image.row(y);
        for (x, texel) in light.iter_mut().enumerate() {
            let [r, g, b, a] = image.rgba(row, x);
            *texel = [decode[1][r as usize], decode[1][g as usize], decode[1][b as usize], decode[0][a as usize]];
        }
        for (out, taps) in row_out.iter_mut().zip(&columns) {
            *out = [0.0; 4];
            for &(source, weight) in taps {
                let texel = light[source as usize];
                (0..4).for_each(|c| out[c] += texel[c] * weight);
            }
        }
        for &(to_y, weight) in feeds {
            let line = &mut accumulator[to_y as usize * to_w * 4..][..to_w * 4];
            for (sum, texel) in line.chunks_exact_mut(4).zip(&row_out) {
                (0..4).for_each(|c| sum[c] += texel[c] * weight);
            }
        }
    }
    let byte = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8;
    accumulator
        .chunks_exact(4)
        .flat_map(|t| {
            let colour = |v: f32| if srgb { linear_to_srgb(v) } else { byte(v) };
            [colour(t[0]), colour(t[1]), colour(t[2]), byte(t[3])]
        })
        .collect()
}

/// For each of `to` output texels along an axis of `from`, the source texels and weights
/// (summing to 1) that make it.
fn weights(from: u32, to: u32, filter: Filter) -> Vec<Vec<(u32, f32)>> {
    let ratio = f64::from(from) / f64::from(to);
    let last = from - 1;
    (0..to)
        .map(|x| {
            let centre = (f64::from(x) + 0.5) * ratio;
            if filter == Filter::Nearest {
                vec![((centre as u32).min(last), 1.0)]
            } else if to > from {
                // Growing: linear between the two nearest texel centres, edges clamped.
                let position = (centre - 0.5).max(0.0);
                let i = (position.floor() as u32).min(last);
                let f = (position - f64::from(i)) as f32;
                if i == last || f == 0.0 {
                    vec![(i, 1.0)]
                } else {
                    vec![(i, 1.0 - f), (i + 1, f)]
                }
            } else {
                // Shrinking: each source texel weighted by how much of the footprint it covers.
                let (start, end) = (f64::from(x) * ratio, (f64::from(x) + 1.0) * ratio);
                let first = start.floor() as u32;
                let past = (end.ceil() as u32).min(from);
                (first..past)
                    .map(|i| {
                        let covered = (end.min(f64::from(i) + 1.0) - start.max(f64::from(i))) / ratio;
                        (i, covered as f32)
                    })
                    .filter(|&(_, w)| w > 0.0)
                    .collect()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_one_and_stay_in_range() {
        for (from, to) in [(11_500, 2048), (2048, 2048), (3, 64), (2, 64), (1, 64), (1000, 1024), (5, 3), (64, 1)] {
            for filter in [Filter::Linear, Filter::Nearest] {
                let taps = weights(from, to, filter);
                assert_eq!(taps.len(), to as usize);
                for tap in &taps {
                    let sum: f32 = tap.iter().map(|&(_, w)| w).sum();
                    assert!((sum - 1.0).abs() < 1e-4, "{from}→{to}: {tap:?}");
                    assert!(tap.iter().all(|&(i, _)| i < from), "{from}→{to}: {tap:?}");
                }
            }
        }
    }

    #[test]
    fn shrinking_averages_light_and_growing_interpolates() {
        // A black and a white texel shrunk to one: half the light (sRGB 188), half the value.
        let pair = [0u8, 0, 0, 255, 255, 255, 255, 255];
        let image = Image { texels: &pair, width: 2, height: 1, channels: 4 };
        assert_eq!(resample(&image, 1, 1, Filter::Linear, true), vec![188, 188, 188, 255]);
        assert_eq!(resample(&image, 1, 1, Filter::Linear, false), vec![128, 128, 128, 255]);
        assert_eq!(resample(&image, 1, 1, Filter::Nearest, true), vec![255, 255, 255, 255]);
        // Grown to four: the outer texels are the sources, the inner ones between them.
        let grown = resample(&image, 4, 1, Filter::Linear, false);
        assert_eq!(grown.chunks(4).map(|t| t[0]).collect::<Vec<_>>(), vec![0, 64, 191, 255]);
    }

    #[test]
    fn grey_expands_to_rgba() {
        let grey = [10u8, 20, 30, 40];
        let image = Image { texels: &grey, width: 2, height: 2, channels: 1 };
        assert_eq!(image.to_rgba()[4..8], [20, 20, 20, 255]);
        let image = Image { texels: &grey, width: 1, height: 2, channels: 2 };
        assert_eq!(image.to_rgba(), vec![10, 10, 10, 20, 30, 30, 30, 40]);
        let shrunk = resample(&Image { texels: &grey, width: 4, height: 1, channels: 1 }, 2, 1, Filter::Linear, false);
        assert_eq!(shrunk, vec![15, 15, 15, 255, 35, 35, 35, 255]);
    }
}
