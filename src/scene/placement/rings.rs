//! Objects in a flat annulus about a vertical axis (a planet's rings, an asteroid belt), each
//! with a random rotation.

use glam::Vec3;

use super::{random_rotation, Fill, Rng};
use crate::scene::Object;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Annulus {
    pub count: u32,
    pub center: Vec3,
    /// `0 <= inner <= outer`, `outer > 0`.
    pub inner_radius: f32,
    pub outer_radius: f32,
    /// Vertical spread, centred on `center`.
    pub thickness: f32,
    pub seed: u64,
}

/// Appends the objects; returns the half edge of an origin-centred box that holds their
/// origins (the caller adds how far a mesh or model reaches from its origin).
pub fn place(ring: &Annulus, palette: &dyn Fill, objects: &mut Vec<Object>) -> f32 {
    let (inner, outer) = (ring.inner_radius, ring.outer_radius);
    let mut rng = Rng::new(ring.seed);
    for _ in 0..ring.count {
        // Uniform over the annulus' area, not its radius, so the inner edge is not crowded.
        let radius = rng.range(inner * inner, outer * outer).sqrt();
        let angle = rng.range(0.0, std::f32::consts::TAU);
        let height = rng.range(-0.5, 0.5) * ring.thickness;
        let translation = ring.center + Vec3::new(radius * angle.cos(), height, radius * angle.sin());
        let rotation = random_rotation(&mut rng);
        palette.fill(&mut rng, translation, rotation, objects);
    }
    ring.center.abs().max_element() + outer + ring.thickness * 0.5
}
