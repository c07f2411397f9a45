//! Generational handles: what a caller holds to name an object, a mesh or a material of a
//! [`LiveScene`](super::LiveScene). A handle carries its slot, the slot's generation when it
//! was made and the scene that made it, so a handle whose object was removed, or that another
//! scene made, is refused rather than taken for whatever holds the slot now.

use std::marker::PhantomData;

/// What a handle names; only used as the type parameter of [`Handle`].
pub trait HandleKind {
    /// The kind's name in error messages.
    const NAME: &'static str;
}

/// Marker of object handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjectKind {}
/// Marker of mesh handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeshKind {}
/// Marker of material handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MaterialKind {}

impl HandleKind for ObjectKind {
    const NAME: &'static str = "object";
}
impl HandleKind for MeshKind {
    const NAME: &'static str = "mesh";
}
impl HandleKind for MaterialKind {
    const NAME: &'static str = "material";
}

/// A generational handle: a slot, the generation the slot had when the handle was made, and
/// the scene that made it.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Handle<K> {
    pub(super) scene: u32,
    pub(super) slot: u32,
    pub(super) generation: u32,
    pub(super) kind: PhantomData<K>,
}

impl<K> Clone for Handle<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K> Copy for Handle<K> {}

impl<K> Handle<K> {
    /// The slot this handle names (stable for the handle's life; reused after removal).
    pub fn slot(&self) -> u32 {
        self.slot
    }
}

/// Names an object of a [`LiveScene`](super::LiveScene).
pub type ObjectHandle = Handle<ObjectKind>;
/// Names a mesh of a [`LiveScene`](super::LiveScene).
pub type MeshHandle = Handle<MeshKind>;
/// Names a material of a [`LiveScene`](super::LiveScene).
pub type MaterialHandle = Handle<MaterialKind>;
