//! Procedural texture layers: the stress scene's lattice and bumps, and the checker and noise
//! a scene file may ask for. Every layer, generated or imported, is [`TEXTURE_SIZE`] square:
//! the layers of one slot form one texture array, so they share a size.

use glam::Vec3;

use crate::mesh::procedural;

/// Edge of every texture layer of a scene, generated or imported.
pub const TEXTURE_SIZE: u32 = 64;

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
