//! Objects scattered uniformly in an axis-aligned box, each with a random rotation: the
//! stress scene, and a scene file's `random` sets.

use glam::Vec3;

use super::{random_rotation, unit_cube, Fill, Rng};
use crate::scene::Object;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RandomBox {
    pub count: u32,
    pub center: Vec3,
    /// Half the edge of the box.
    pub half_extent: f32,
    pub seed: u64,
}

/// Appends the objects; returns the half edge of an origin-centred box that holds their
/// origins (the caller adds how far a mesh or model reaches from its origin).
pub fn place(set: &RandomBox, palette: &dyn Fill, objects: &mut Vec<Object>) -> f32 {
    let mut rng = Rng::new(set.seed);
    for _ in 0..set.count {
        let translation = set.center + unit_cube(&mut rng) * set.half_extent;
        let rotation = random_rotation(&mut rng);
        palette.fill(&mut rng, translation, rotation, objects);
    }
    set.center.abs().max_element() + set.half_extent
}
