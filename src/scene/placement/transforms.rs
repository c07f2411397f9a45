//! Objects placed one by one: each names its mesh, material, position, rotation and scale;
//! only the animation classes are drawn.

use glam::{Quat, Vec3};

use super::{ClassRange, Rng};
use crate::scene::Object;

/// One object as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: f32,
    pub mesh: u32,
    pub material: u32,
}

/// Appends the objects; returns the half edge of an origin-centred box that holds them.
pub fn place(placed: &[Placed], orbit: ClassRange, spin: ClassRange, seed: u64, objects: &mut Vec<Object>) -> f32 {
    let mut rng = Rng::new(seed);
    let mut extent = 0.0f32;
    for p in placed {
        extent = extent.max(p.translation.abs().max_element() + p.scale);
        objects.push(Object {
            translation: p.translation,
            rotation: p.rotation,
            scale: p.scale,
            mesh: p.mesh,
            material: p.material,
            orbit_class: orbit.draw(&mut rng),
            spin_class: spin.draw(&mut rng),
        });
    }
    extent
}
