//! A regular 3D grid of objects centred on a point, all with one rotation.

use glam::{Quat, Vec3};

use super::{Fill, Rng};
use crate::scene::Object;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Objects along x, y and z.
    pub counts: [u32; 3],
    /// Distance between neighbours along each axis.
    pub spacing: Vec3,
    pub center: Vec3,
    pub rotation: Quat,
    pub seed: u64,
}

/// Appends the objects, x outermost and z innermost; returns the half edge of an
/// origin-centred box that holds their origins (the caller adds how far a mesh or model
/// reaches from its origin).
pub fn place(grid: &Grid, palette: &dyn Fill, objects: &mut Vec<Object>) -> f32 {
    let [nx, ny, nz] = grid.counts;
    let half_span = (Vec3::new(nx as f32, ny as f32, nz as f32) - 1.0) * 0.5;
    let mut rng = Rng::new(grid.seed);
    for x in 0..nx {
        for y in 0..ny {
            for z in 0..nz {
                let cell = Vec3::new(x as f32, y as f32, z as f32) - half_span;
                palette.fill(&mut rng, grid.center + cell * grid.spacing, grid.rotation, objects);
            }
        }
    }
    grid.center.abs().max_element() + (half_span * grid.spacing.abs()).max_element()
}
