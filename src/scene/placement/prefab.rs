//! Prefabs: a multi-part model (a glTF `[[model]]`) placed as one. Each part is a mesh and a
//! material at a similarity transform relative to the prefab's origin; placing an instance
//! makes one object per part, its transform the instance's composed with the part's. Objects
//! carry translation, rotation and a uniform scale, and a similarity composed with a similarity
//! is one, so nothing is lost (what a similarity cannot hold was baked into the part's mesh
//! when the prefab was made).

use glam::{Quat, Vec3};

use super::{ClassRange, Fill, Rng, ScaleRange};
use crate::scene::Object;

/// One part of a prefab: a mesh and a material at a transform from the prefab's origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    pub translation: Vec3,
    pub rotation: Quat,
    /// Uniform and positive.
    pub scale: f32,
    pub mesh: u32,
    pub material: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prefab {
    pub parts: Vec<Part>,
    /// Distance from the prefab's origin to its farthest point (every part's bounding sphere
    /// inside), at scale 1: what the automatic camera frames.
    pub reach: f32,
}

impl Prefab {
    /// Appends one object per part for an instance at `translation`, `rotation`, `scale`; the
    /// parts share the instance's animation classes, so an orbit moves the model as one.
    pub fn place(
        &self,
        translation: Vec3,
        rotation: Quat,
        scale: f32,
        (orbit_class, spin_class): (u16, u16),
        objects: &mut Vec<Object>,
    ) {
        objects.extend(self.parts.iter().map(|part| Object {
            translation: translation + rotation * (part.translation * scale),
            rotation: (rotation * part.rotation).normalize(),
            scale: scale * part.scale,
            mesh: part.mesh,
            material: part.material,
            orbit_class,
            spin_class,
        }));
    }
}

/// What each instance of a generated set of prefabs draws after its position and rotation:
/// the counterpart of [`super::Palette`] for models.
#[derive(Clone, Copy, Debug)]
pub struct PrefabPalette<'a> {
    /// Prefabs to pick from, uniformly; not empty.
    pub prefabs: &'a [&'a Prefab],
    pub scale: ScaleRange,
    pub orbit: ClassRange,
    pub spin: ClassRange,
}

impl Fill for PrefabPalette<'_> {
    /// Draws the scale, the prefab, orbit and spin (in that order; one prefab draws nothing
    /// for its pick), then places every part.
    fn fill(&self, rng: &mut Rng, translation: Vec3, rotation: Quat, objects: &mut Vec<Object>) {
        let scale = self.scale.draw(rng);
        let prefab = if self.prefabs.len() == 1 { 0 } else { rng.below(self.prefabs.len() as u32) as usize };
        let classes = (self.orbit.draw(rng), self.spin.draw(rng));
        self.prefabs[prefab].place(translation, rotation, scale, classes, objects);
    }
}
