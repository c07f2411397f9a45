//! Live scenes: meshes, materials and objects added, changed and removed between frames
//! through generational handles, for applications that embed the renderer.
//!
//! A [`LiveScene`] keeps its objects in slots. Removing an object frees its slot (and bumps
//! the slot's generation, so the old handle is refused from then on, never silently taken for
//! the slot's next object); adding reuses a freed slot before growing. Handles also carry the
//! id of the scene that made them, so a handle of another scene is refused too.
//!
//! What changed since the last frame is recorded as it happens ([`Changes`]), and
//! [`sync::LiveSync`] mirrors it into the renderer's buffers: each batch keeps spare slots,
//! so adds, removes and moves rewrite only their own records (gathered into one upload that
//! the frame's scatter pass copies into place); only a batch that runs out of room, or a
//! change of the mesh or material tables, lays the scene out again.

#![warn(missing_docs)]

mod arena;
pub mod churn;
mod handle;
pub mod sync;

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU32, Ordering};

use glam::{Quat, Vec3};

use crate::mesh::{MeshArena, MeshData, MeshError};
use crate::scene::{Camera, Material, Object, Scene, TextureLayers};

use arena::{Arena, PREFETCH_AHEAD};
pub use handle::{Handle, HandleKind, MaterialHandle, MaterialKind, MeshHandle, MeshKind, ObjectHandle, ObjectKind};
pub use sync::{ApplyStats, LiveSync};

/// Source of scene ids: each [`LiveScene`] gets its own, and its handles carry it.
static NEXT_SCENE_ID: AtomicU32 = AtomicU32::new(1);

/// What a live scene refuses.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LiveError {
    /// The handle's object, mesh or material was removed.
    #[error("this {kind} handle was removed (slot {slot}); it names nothing any more")]
    Removed {
        /// "object", "mesh" or "material".
        kind: &'static str,
        /// The slot the handle named.
        slot: u32,
    },
    /// The handle was made by another scene.
    #[error("this {kind} handle belongs to another scene")]
    Foreign {
        /// "object", "mesh" or "material".
        kind: &'static str,
    },
    /// A mesh or material still used by objects cannot be removed.
    #[error("the {kind} of slot {slot} is still used by {users} object(s); remove or change them first")]
    InUse {
        /// "mesh" or "material".
        kind: &'static str,
        /// Its slot.
        slot: u32,
        /// Objects using it.
        users: u32,
    },
    /// The mesh's data is not valid.
    #[error(transparent)]
    Mesh(#[from] MeshError),
}

/// A live object: where it is, what it draws with, whether it is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LiveObject {
    /// Position of the object's origin.
    pub translation: Vec3,
    /// Orientation.
    pub rotation: Quat,
    /// Uniform scale.
    pub scale: f32,
    /// Its mesh.
    pub mesh: MeshHandle,
    /// Its material.
    pub material: MaterialHandle,
    /// Hidden objects keep their slot but are not drawn.
    pub visible: bool,
}

impl LiveObject {
    /// A visible object at `translation`, unrotated, of scale 1.
    pub fn new(mesh: MeshHandle, material: MaterialHandle, translation: Vec3) -> Self {
        Self { translation, rotation: Quat::IDENTITY, scale: 1.0, mesh, material, visible: true }
    }
}

/// One change of one object slot, in the order they were made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The slot's object appeared: added, or shown again.
    Placed(u32),
    /// The slot's object disappeared: removed, hidden, or leaving its batch.
    Gone(u32),
    /// The slot's object moved or took another material of the same variant.
    Moved(u32),
}

impl Change {
    /// The object slot the change is about.
    pub fn slot(self) -> u32 {
        match self {
            Change::Placed(slot) | Change::Gone(slot) | Change::Moved(slot) => slot,
        }
    }
}

/// What changed since the changes were last taken ([`LiveScene::take_changes`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// Meshes or materials were added, removed or changed: the scene's buffers are made
    /// again.
    pub tables: bool,
    /// Object changes in order (a slot may appear several times).
    pub objects: Vec<Change>,
}

/// A scene edited through handles between frames.
#[derive(Clone, Debug)]
pub struct LiveScene {
    id: u32,
    meshes: MeshArena,
    /// Generation and liveness per mesh of `meshes` (mesh data is never moved: a removed
    /// mesh's vertices stay in the arena, unreferenced).
    mesh_slots: Arena<()>,
    /// Objects using each mesh slot.
    mesh_users: Vec<u32>,
    materials: Arena<Material>,
    material_users: Vec<u32>,
    objects: Arena<LiveObject>,
    /// The camera a plain [`LiveScene::to_scene`] carries.
    pub camera: Camera,
    changes: Changes,
}

impl LiveScene {
    /// An empty scene seen from `camera`.
    pub fn new(camera: Camera) -> Self {
        Self {
            id: NEXT_SCENE_ID.fetch_add(1, Ordering::Relaxed),
            meshes: MeshArena::default(),
            mesh_slots: Arena::default(),
            mesh_users: Vec::new(),
            materials: Arena::default(),
            material_users: Vec::new(),
            objects: Arena::default(),
            camera,
            changes: Changes { tables: true, ..Changes::default() },
        }
    }

    fn handle<K>(&self, (slot, generation): (u32, u32)) -> Handle<K> {
        Handle { scene: self.id, slot, generation, kind: PhantomData }
    }

    fn check<K: HandleKind>(&self, handle: Handle<K>) -> Result<(), LiveError> {
        if handle.scene != self.id {
            return Err(LiveError::Foreign { kind: K::NAME });
        }
        Ok(())
    }

    fn removed<K: HandleKind>(handle: Handle<K>) -> LiveError {
        LiveError::Removed { kind: K::NAME, slot: handle.slot }
    }

    /// Adds a mesh (one level of detail); its data is checked as [`MeshArena::add`] checks it.
    pub fn add_mesh(&mut self, name: &str, data: MeshData) -> Result<MeshHandle, LiveError> {
        // Mesh slots are never reused: the arena index is the slot.
        self.add_mesh_lods(name, crate::mesh::LodChain::single(data))
    }

    /// Adds a mesh with its levels of detail, checked as [`MeshArena::add_lods`] checks them.
    pub fn add_mesh_lods(&mut self, name: &str, chain: crate::mesh::LodChain) -> Result<MeshHandle, LiveError> {
        let index = self.meshes.add_lods(name, chain)?;
        self.changes.tables = true;
        let slot = self.mesh_slots.insert(());
        debug_assert_eq!(slot.0, index);
        self.mesh_users.push(0);
        Ok(self.handle(slot))
    }

    /// Removes a mesh no object uses.
    pub fn remove_mesh(&mut self, mesh: MeshHandle) -> Result<(), LiveError> {
        self.check(mesh)?;
        self.mesh_slots.get(mesh.slot, mesh.generation).ok_or_else(|| Self::removed(mesh))?;
        let users = self.mesh_users[mesh.slot as usize];
        if users > 0 {
            return Err(LiveError::InUse { kind: "mesh", slot: mesh.slot, users });
        }
        self.mesh_slots.remove(mesh.slot, mesh.generation);
        // A removed mesh's slot is not reused (its data stays in the arena).
        self.mesh_slots.free.pop();
        self.changes.tables = true;
        Ok(())
    }

    /// Adds a material.
    pub fn add_material(&mut self, material: Material) -> MaterialHandle {
        let slot = self.materials.insert(material);
        if slot.0 as usize == self.material_users.len() {
            self.material_users.push(0);
        }
        self.changes.tables = true;
        self.handle(slot)
    }

    /// Replaces a material's values; objects using it change with it.
    pub fn set_material_values(&mut self, handle: MaterialHandle, material: Material) -> Result<(), LiveError> {
        self.check(handle)?;
        let current = self.materials.get_mut(handle.slot, handle.generation).ok_or_else(|| Self::removed(handle))?;
        *current = material;
        // A variant change moves the material's objects to other batches: a new layout.
        self.changes.tables = true;
        Ok(())
    }

    /// Removes a material no object uses; its slot is reused by the next material added.
    pub fn remove_material(&mut self, handle: MaterialHandle) -> Result<(), LiveError> {
        self.check(handle)?;
        self.materials.get(handle.slot, handle.generation).ok_or_else(|| Self::removed(handle))?;
        let users = self.material_users[handle.slot as usize];
        if users > 0 {
            return Err(LiveError::InUse { kind: "material", slot: handle.slot, users });
        }
        self.materials.remove(handle.slot, handle.generation);
        self.changes.tables = true;
        Ok(())
    }

    fn check_refs(&self, object: &LiveObject) -> Result<(), LiveError> {
        self.check(object.mesh)?;
        self.check(object.material)?;
        self.mesh_slots.get(object.mesh.slot, object.mesh.generation).ok_or_else(|| Self::removed(object.mesh))?;
        self.materials
            .get(object.material.slot, object.material.generation)
            .ok_or_else(|| Self::removed(object.material))?;
        Ok(())
    }

    /// Adds an object, in a freed slot when there is one.
    pub fn add_object(&mut self, object: LiveObject) -> Result<ObjectHandle, LiveError> {
        self.check_refs(&object)?;
        self.mesh_users[object.mesh.slot as usize] += 1;
        self.material_users[object.material.slot as usize] += 1;
        let slot = self.objects.insert(object);
        if object.visible {
            self.changes.objects.push(Change::Placed(slot.0));
        }
        Ok(self.handle(slot))
    }

    /// Removes an object; its handle is refused from now on and its slot is free for reuse.
    pub fn remove_object(&mut self, handle: ObjectHandle) -> Result<(), LiveError> {
        self.check(handle)?;
        let object = self.objects.remove(handle.slot, handle.generation).ok_or_else(|| Self::removed(handle))?;
        self.mesh_users[object.mesh.slot as usize] -= 1;
        self.material_users[object.material.slot as usize] -= 1;
        if object.visible {
            self.changes.objects.push(Change::Gone(handle.slot));
        }
        Ok(())
    }

    /// Removes every object of `handles`, as [`LiveScene::remove_object`] does one at a time,
    /// but asking for each object's slot a few objects ahead, so that in a large scene their
    /// cache misses overlap. Stops at the first handle refused; the objects before it stay
    /// removed.
    pub fn remove_objects(&mut self, handles: &[ObjectHandle]) -> Result<(), LiveError> {
        for (index, &handle) in handles.iter().enumerate() {
            if let Some(ahead) = handles.get(index + PREFETCH_AHEAD) {
                self.objects.prefetch(ahead.slot);
            }
            self.remove_object(handle)?;
        }
        Ok(())
    }

    /// The object a handle names.
    pub fn object(&self, handle: ObjectHandle) -> Result<&LiveObject, LiveError> {
        self.check(handle)?;
        self.objects.get(handle.slot, handle.generation).ok_or_else(|| Self::removed(handle))
    }

    fn object_mut(&mut self, handle: ObjectHandle) -> Result<&mut LiveObject, LiveError> {
        self.check(handle)?;
        self.objects.get_mut(handle.slot, handle.generation).ok_or_else(|| Self::removed(handle))
    }

    /// Moves an object.
    pub fn set_transform(
        &mut self,
        handle: ObjectHandle,
        translation: Vec3,
        rotation: Quat,
        scale: f32,
    ) -> Result<(), LiveError> {
        let object = self.object_mut(handle)?;
        object.translation = translation;
        object.rotation = rotation;
        object.scale = scale;
        if object.visible {
            self.changes.objects.push(Change::Moved(handle.slot));
        }
        Ok(())
    }

    /// Moves every object of `moves` (handle, translation, rotation, scale), as
    /// [`LiveScene::set_transform`] does one at a time, asking for slots ahead as
    /// [`LiveScene::remove_objects`] does. Stops at the first handle refused; the objects
    /// before it stay moved.
    pub fn set_transforms(&mut self, moves: &[(ObjectHandle, Vec3, Quat, f32)]) -> Result<(), LiveError> {
        for (index, &(handle, translation, rotation, scale)) in moves.iter().enumerate() {
            if let Some((ahead, ..)) = moves.get(index + PREFETCH_AHEAD) {
                self.objects.prefetch(ahead.slot);
            }
            self.set_transform(handle, translation, rotation, scale)?;
        }
        Ok(())
    }

    /// Gives an object another material; a material of another variant moves it to another
    /// batch.
    pub fn set_material(&mut self, handle: ObjectHandle, material: MaterialHandle) -> Result<(), LiveError> {
        self.check(material)?;
        let new_variant =
            self.materials.get(material.slot, material.generation).ok_or_else(|| Self::removed(material))?.variant;
        let old = *self.object(handle)?;
        let old_variant = self.materials.get(old.material.slot, old.material.generation).map(|m| m.variant);
        self.material_users[old.material.slot as usize] -= 1;
        self.material_users[material.slot as usize] += 1;
        let object = self.object_mut(handle)?;
        object.material = material;
        let visible = object.visible;
        if visible && old_variant != Some(new_variant) {
            self.changes.objects.extend([Change::Gone(handle.slot), Change::Placed(handle.slot)]);
        } else if visible {
            self.changes.objects.push(Change::Moved(handle.slot));
        }
        Ok(())
    }

    /// Shows or hides an object (a hidden object keeps its slot and handle).
    pub fn set_visible(&mut self, handle: ObjectHandle, visible: bool) -> Result<(), LiveError> {
        let object = self.object_mut(handle)?;
        if object.visible != visible {
            object.visible = visible;
            let slot = handle.slot;
            self.changes.objects.push(if visible { Change::Placed(slot) } else { Change::Gone(slot) });
        }
        Ok(())
    }

    /// Whether the scene has a mesh and a material alive: what drawing anything needs.
    pub fn has_meshes_and_materials(&self) -> bool {
        self.mesh_slots.live > 0 && self.materials.live > 0
    }

    /// Objects alive (shown or hidden).
    pub fn object_count(&self) -> u32 {
        self.objects.live
    }

    /// Object slots, alive or free: the most objects the scene has held at once.
    pub fn object_capacity(&self) -> u32 {
        self.objects.slots.len() as u32
    }

    /// Moves the changes since the last call into `changes` (cleared first; its allocation
    /// is swapped in, so a caller that keeps one `Changes` allocates nothing per frame).
    pub fn take_changes(&mut self, changes: &mut Changes) {
        changes.tables = false;
        changes.objects.clear();
        std::mem::swap(&mut self.changes, changes);
    }

    /// The batch key of a visible object: (its material's variant, its mesh slot).
    pub fn batch_key(&self, slot: u32) -> Option<(u32, u32)> {
        let o = self.objects.slots.get(slot as usize)?.value.filter(|o| o.visible)?;
        let material = self.materials.slots.get(o.material.slot as usize)?.value.as_ref()?;
        Some((material.variant as u32, o.mesh.slot))
    }

    /// The visible objects' slots, in slot order: entry `i` is the slot of [`Self::to_scene`]'s
    /// object `i`.
    pub fn visible_slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.objects
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.value.is_some_and(|o| o.visible))
            .map(|(slot, _)| slot as u32)
    }

    /// Whether the compute rasteriser may draw `object` (an object of [`LiveScene::scene_object`]):
    /// its material's surface is one the compute path draws (`gpu_scene::prepare::soft_rasterisable`).
    pub(crate) fn soft_rasterisable(&self, object: &Object) -> bool {
        let material = self.materials.slots.get(object.material as usize).and_then(|s| s.value.as_ref());
        material.is_some_and(crate::gpu_scene::prepare::soft_rasterisable)
    }

    /// The plain [`Object`] of a live object (its handles as indices of [`Self::to_scene`]).
    pub fn scene_object(&self, slot: u32) -> Option<Object> {
        let o = self.objects.slots.get(slot as usize)?.value?;
        Some(Object {
            translation: o.translation,
            rotation: o.rotation,
            scale: o.scale,
            mesh: o.mesh.slot,
            material: o.material.slot,
            orbit_class: 0,
            spin_class: 0,
        })
    }

    /// The meshes, every one ever added (removed ones unreferenced).
    pub fn meshes(&self) -> &MeshArena {
        &self.meshes
    }

    /// The scene as it stands, as a plain [`Scene`]: every mesh and material slot (removed
    /// ones unreferenced) and the visible objects in slot order. Rendering it from scratch
    /// gives the same image as rendering the live scene.
    pub fn to_scene(&self) -> Scene {
        let fallback = Material::colored("removed", glam::Vec4::ONE);
        let materials = self.materials.slots.iter().map(|s| s.value.clone().unwrap_or_else(|| fallback.clone()));
        Scene {
            name: "live".into(),
            meshes: self.meshes.clone(),
            materials: materials.collect(),
            objects: self.visible_slots().filter_map(|slot| self.scene_object(slot)).collect(),
            camera: self.camera,
            sun: crate::scene::Sun::default(),
            environment: crate::scene::Environment::default(),
            animated: false,
            base_color_textures: TextureLayers::default(),
            normal_textures: TextureLayers::default(),
            notes: Vec::new(),
        }
    }
}
