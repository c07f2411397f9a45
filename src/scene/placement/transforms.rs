//! Objects placed one by one: each names its mesh and material, or a model, with its position,
//! rotation and scale; only the animation classes are drawn.

use glam::{Quat, Vec3};

use super::prefab::Prefab;
use super::{ClassRange, Rng};
use crate::scene::Object;

/// What one placement puts there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Item<'a> {
    Mesh { mesh: u32, material: u32 },
    Prefab(&'a Prefab),
}

/// One placement as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed<'a> {
    pub translation: Vec3,
    pub rotation: Quat,
    pub scale: f32,
    pub item: Item<'a>,
    /// How far the item reaches from its origin at scale 1 (a mesh's bounding sphere's centre
    /// distance plus radius, a prefab's [`Prefab::reach`]): frames the automatic camera.
    pub reach: f32,
}

/// Appends the objects (one per mesh placement, one per part of a prefab placement); returns
/// the half edge of an origin-centred box that holds them.
pub fn place(placed: &[Placed], orbit: ClassRange, spin: ClassRange, seed: u64, objects: &mut Vec<Object>) -> f32 {
    let mut rng = Rng::new(seed);
    let mut extent = 0.0f32;
    for p in placed {
        extent = extent.max(p.translation.abs().max_element() + p.scale * p.reach);
        let classes = (orbit.draw(&mut rng), spin.draw(&mut rng));
        match p.item {
            Item::Mesh { mesh, material } => objects.push(Object {
                translation: p.translation,
                rotation: p.rotation,
                scale: p.scale,
                mesh,
                material,
                orbit_class: classes.0,
                spin_class: classes.1,
            }),
            Item::Prefab(prefab) => prefab.place(p.translation, p.rotation, p.scale, classes, objects),
        }
    }
    extent
}
