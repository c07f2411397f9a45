//! A churning scene for the benchmark and the soak: every frame `n` objects removed, `n`
//! added elsewhere and `n` more moved, spread over the whole scene, so the changes land in
//! every batch and all over the object arrays.
//!
//! [`ChurnScene::restart`] puts the scene back as it was made, with the same random sequence,
//! so each benchmark row churns the same frames: rows of different modes are compared frame by
//! frame, and a row that went on from where the previous one stopped would cull another scene.

use glam::{Quat, Vec3};

use super::{LiveError, LiveObject, LiveScene, MaterialHandle, MeshHandle, ObjectHandle};
use crate::scene::Scene;

/// A live scene and the handles the churn picks from.
pub struct ChurnScene {
    /// The scene being churned.
    pub live: LiveScene,
    meshes: Vec<MeshHandle>,
    materials: Vec<MaterialHandle>,
    objects: Vec<ObjectHandle>,
    /// Objects are placed within this distance of the origin on each axis.
    half_extent: f32,
    /// Scale of the objects added.
    scale: f32,
    /// splitmix64 state.
    random: u64,
    /// This step's objects to remove, reused.
    doomed: Vec<ObjectHandle>,
    /// This step's moves, reused.
    moves: Vec<(ObjectHandle, Vec3, Quat, f32)>,
    /// The scene, its objects and the random state as made, for [`ChurnScene::restart`].
    start: (LiveScene, Vec<ObjectHandle>, u64),
}

impl ChurnScene {
    /// A live copy of `scene` (its meshes with their levels, its materials without textures,
    /// its objects, still), ready to churn.
    pub fn from_scene(scene: &Scene, seed: u64) -> Result<Self, LiveError> {
        let mut live = LiveScene::new(scene.camera);
        let meshes = (0..scene.meshes.meshes.len() as u32)
            .map(|mesh| live.add_mesh_lods(&scene.meshes.meshes[mesh as usize].name, scene.meshes.chain(mesh)))
            .collect::<Result<Vec<_>, _>>()?;
        let materials: Vec<MaterialHandle> = scene
            .materials
            .iter()
            .map(|m| {
                // A live scene has no texture layers: its materials keep their factors only.
                live.add_material(crate::scene::Material {
                    base_color_layer: None,
                    normal_layer: None,
                    metallic_roughness_layer: None,
                    occlusion_layer: None,
                    emissive_layer: None,
                    ..m.clone()
                })
            })
            .collect();
        let mut objects = Vec::with_capacity(scene.objects.len());
        let mut half_extent: f32 = 1.0;
        let mut scale = 0.0;
        for o in &scene.objects {
            half_extent = half_extent.max(o.translation.abs().max_element());
            scale += o.scale / scene.objects.len() as f32;
            let object = LiveObject {
                rotation: o.rotation,
                scale: o.scale,
                ..LiveObject::new(meshes[o.mesh as usize], materials[o.material as usize], o.translation)
            };
            objects.push(live.add_object(object)?);
        }
        let scale = if scale > 0.0 { scale } else { 1.0 };
        Ok(Self {
            start: (live.clone(), objects.clone(), seed),
            live,
            meshes,
            materials,
            objects,
            half_extent,
            scale,
            random: seed,
            doomed: Vec::new(),
            moves: Vec::new(),
        })
    }

    /// Puts the scene back as [`ChurnScene::from_scene`] made it, random state included: the
    /// steps after a restart are the steps after the start. The scene's pending changes are
    /// those of a scene just made (everything new), so the [`super::LiveSync`] that mirrors it
    /// must be a new one too, which lays the scene out at its first apply.
    pub fn restart(&mut self) {
        let (live, objects, seed) = &self.start;
        self.live = live.clone();
        self.objects.clone_from(objects);
        self.random = *seed;
    }

    fn next(&mut self) -> u64 {
        self.random = self.random.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.random;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn position(&mut self) -> Vec3 {
        let mut axis = || (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
        let (x, y, z) = (axis(), axis(), axis());
        Vec3::new(x, y, z) * self.half_extent
    }

    /// One frame of churn: `n` objects removed, `n` added elsewhere, `n` others moved. The
    /// objects to remove and to move are picked first and edited in batches
    /// ([`LiveScene::remove_objects`], [`LiveScene::set_transforms`]), as an application that
    /// knows its frame's changes would.
    pub fn step(&mut self, n: usize) -> Result<(), LiveError> {
        self.doomed.clear();
        for _ in 0..n.min(self.objects.len()) {
            let index = self.below(self.objects.len());
            self.doomed.push(self.objects.swap_remove(index));
        }
        self.live.remove_objects(&self.doomed)?;
        for _ in 0..n {
            let (mesh, material) = (self.below(self.meshes.len()), self.below(self.materials.len()));
            let (mesh, material) = (self.meshes[mesh], self.materials[material]);
            let at = self.position();
            let object = LiveObject { scale: self.scale, ..LiveObject::new(mesh, material, at) };
            self.objects.push(self.live.add_object(object)?);
        }
        self.moves.clear();
        for _ in 0..n.min(self.objects.len()) {
            let index = self.below(self.objects.len());
            let handle = self.objects[index];
            let at = self.position();
            let rotation = Quat::from_rotation_y((self.next() % 628) as f32 / 100.0);
            self.moves.push((handle, at, rotation, self.scale));
        }
        self.live.set_transforms(&self.moves)
    }

    /// Objects alive.
    pub fn object_count(&self) -> usize {
        self.objects.len()
    }
}
