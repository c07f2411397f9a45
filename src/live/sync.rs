//! Mirrors a [`LiveScene`]'s changes into a [`Renderer`]'s scene buffers between frames.
//!
//! Layout: objects stay sorted by batch key (variant, mesh) as the passes need, but each key's
//! run has spare slots: its *capacity* is at least a quarter more than its object count when
//! laid out (the room the churn of a steady scene wanders in without outgrowing it, see
//! `fit`). A spare slot holds an object that can never be drawn (negative bounding radius, so
//! every frustum test rejects it, and a zero model matrix, so even unculled frames rasterise
//! nothing). The passes dispatch over every slot, spare ones included; their commands do not
//! change.
//!
//! Per frame: a removed (or hidden) object's GPU slot is given a spare record and goes on its
//! key's free list; an added object takes a free slot of its key; a moved one is rewritten
//! where it is. Each changed record goes to [`Renderer::set_object`], which keeps the host copy
//! the cpu and bundle modes cull from and gathers the records for the frame's scatter pass
//! (`passes::scatter`): one upload, one dispatch. Nothing here grows with the scene: a change
//! reads its slot's placement (GPU id and run, kept here so no GPU record is read back) and
//! its run's free list, and writes one record; what each change will read is asked for a few
//! changes ahead, so in a large scene the cache misses overlap.
//!
//! Only when a key has no free slot, or the mesh or material tables change, is the scene laid
//! out again and its buffers made anew; keys nearly full double then (spawning is amortised
//! O(1)), keys under a quarter used halve (capacities shrink lazily).

use std::collections::HashMap;

use glam::{Mat4, Vec4};

use super::arena::{prefetch, PREFETCH_AHEAD};
use super::{Change, Changes, LiveScene};
use crate::frame::Renderer;
use crate::gpu::GpuContext;
use crate::gpu_scene::prepare::{gpu_object_in, gpu_order, prepare};
use crate::gpu_scene::types::GpuObject;
use crate::gpu_scene::UploadError;
use crate::scene::Object;
use crate::tunables::VARIANT_COUNT;

/// Where a slot's object is on the GPU: its id and the run it is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placement {
    id: u32,
    run: u32,
}

/// The placement of a slot that is not on the GPU (free or hidden).
const NOT_ON_GPU: Placement = Placement { id: u32::MAX, run: u32::MAX };

/// Run number of a batch key without a run.
const NO_RUN: u32 = u32::MAX;

/// The least spare room a batch key's run is laid out with.
const MIN_SPARE: u32 = 64;

/// What applying one frame's changes did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ApplyStats {
    /// The scene was laid out again and its buffers made anew.
    pub relaid: bool,
    /// Bytes written to the GPU.
    pub upload_bytes: u64,
    /// Object records that went up (each changed GPU slot once); every record of the scene
    /// after a layout.
    pub objects_written: u32,
    /// Bounds of cells of the cull's hierarchy that went up with gathered records
    /// (`gpu_scene::cells`); 0 when every record went up (they went with them).
    pub cells_written: u32,
}

/// One batch key's run of GPU slots.
#[derive(Clone, Debug)]
struct Run {
    /// The level-0 batch of the key, as every object record of the run names it.
    batch: u32,
    /// The record of a free slot of the run.
    spare: GpuObject,
    /// Spare GPU ids of the run.
    free: Vec<u32>,
}

/// The link between a live scene's object slots and the ids the renderer's passes use.
#[derive(Clone, Debug, Default)]
pub struct LiveSync {
    /// Placement per object slot, or [`NOT_ON_GPU`].
    placements: Vec<Placement>,
    /// Every batch key's run, in key order.
    runs: Vec<Run>,
    /// Run number per batch key (variant, mesh) at `mesh * VARIANT_COUNT + variant`, or
    /// [`NO_RUN`].
    run_of_key: Vec<u32>,
    /// Capacity per batch key, kept across layouts so they grow by doubling.
    capacities: HashMap<(u32, u32), u32>,
    /// Whether a layout has been made.
    laid_out: bool,
    /// This frame's changes, reused.
    changes: Changes,
}

/// A record no frame draws, in `record`'s run: see the module docs.
fn spare(record: &GpuObject) -> GpuObject {
    GpuObject { model: Mat4::ZERO, bounds: Vec4::new(0.0, 0.0, 0.0, -1.0e30), animation: 0, ..*record }
}

/// The capacity a run is laid out with for `count` objects: a quarter as much again, or
/// eight times the count's square root, or [`MIN_SPARE`], whichever is most. Under a steady
/// churn a key's count wanders like a Poisson count, by about its square root, so large keys
/// need a share of spare room and small ones relatively more.
fn fit(count: u32) -> u32 {
    count.saturating_add((count / 4).max(8 * count.isqrt()).max(MIN_SPARE))
}

/// A run's capacity for `count` objects at a layout, given its `current` one: kept while an
/// eighth of it is still spare and at least a quarter is used; doubled (or fitted, if more)
/// when outgrown or nearly so, so spawning is amortised O(1) and the keys close to full grow
/// at the same layout rather than one layout each; halved (or fitted, if more) under a
/// quarter used, so capacities shrink lazily and a key shrunk has room to grow back.
fn capacity_for(count: u32, current: Option<u32>) -> u32 {
    match current {
        None => fit(count),
        Some(current) if count.saturating_mul(4) < current => (current / 2).max(fit(count)),
        Some(current) if count > current - current / 8 => current.saturating_mul(2).max(fit(count)),
        Some(current) => current,
    }
}

impl LiveSync {
    /// A link that knows nothing yet: the first [`LiveSync::apply`] lays the whole scene out.
    pub fn new() -> Self {
        Self::default()
    }

    /// Brings `renderer`'s scene up to date with `live`'s changes since the last call, and
    /// uploads the changed records ([`Renderer::flush_object_updates`]).
    pub fn apply(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        live: &mut LiveScene,
    ) -> Result<ApplyStats, UploadError> {
        profile_function!();
        live.take_changes(&mut self.changes);
        if self.changes.tables || !self.laid_out {
            return self.lay_out(ctx, renderer, live);
        }
        if self.placements.len() < live.object_capacity() as usize {
            self.placements.resize(live.object_capacity() as usize, NOT_ON_GPU);
        }
        let mut out_of_room = false;
        let changes = &self.changes.objects;
        for (index, &change) in changes.iter().enumerate() {
            self.prefetch(changes, index, live, renderer);
            match change {
                Change::Gone(slot) => {
                    let placement = std::mem::replace(&mut self.placements[slot as usize], NOT_ON_GPU);
                    if placement == NOT_ON_GPU {
                        continue;
                    }
                    let run = &mut self.runs[placement.run as usize];
                    run.free.push(placement.id);
                    renderer.set_object(placement.id, run.spare);
                }
                Change::Placed(slot) => {
                    if self.placements[slot as usize] != NOT_ON_GPU {
                        continue;
                    }
                    let Some((variant, mesh)) = live.batch_key(slot) else { continue };
                    let key = (mesh * VARIANT_COUNT + variant) as usize;
                    let run_number = self.run_of_key.get(key).copied().unwrap_or(NO_RUN);
                    let free = self.runs.get_mut(run_number as usize).and_then(|r| Some((r.batch, r.free.pop()?)));
                    let Some((run, id)) = free else {
                        out_of_room = true;
                        break;
                    };
                    let object = live.scene_object(slot).expect("a placed slot holds an object");
                    let soft = live.soft_rasterisable(&object);
                    renderer.set_object(id, gpu_object_in(live.meshes(), false, &object, run, soft));
                    self.placements[slot as usize] = Placement { id, run: run_number };
                }
                Change::Moved(slot) => {
                    let placement = self.placements[slot as usize];
                    let Some(object) = live.scene_object(slot).filter(|_| placement != NOT_ON_GPU) else { continue };
                    let batch = self.runs[placement.run as usize].batch;
                    let soft = live.soft_rasterisable(&object);
                    renderer.set_object(placement.id, gpu_object_in(live.meshes(), false, &object, batch, soft));
                }
            }
        }
        if out_of_room {
            // A key's run is full (or new): lay out again, its capacity doubled.
            return self.lay_out(ctx, renderer, live);
        }
        let upload = renderer.flush_object_updates(ctx);
        Ok(ApplyStats {
            relaid: false,
            upload_bytes: upload.bytes,
            objects_written: upload.records,
            cells_written: upload.cells,
        })
    }

    /// Starts loading what the changes after `index` will read. At a million objects each
    /// change's slot, placement and record are in arrays far larger than the caches, and a
    /// change reads its placement before it knows which record to write: loaded one change at
    /// a time, those misses follow one another; asked for ahead, they overlap. The
    /// placement and the slot [`PREFETCH_AHEAD`] changes on, the record half as far (by then
    /// its placement is loaded).
    fn prefetch(&self, changes: &[Change], index: usize, live: &LiveScene, renderer: &Renderer) {
        if let Some(&change) = changes.get(index + PREFETCH_AHEAD) {
            let slot = change.slot() as usize;
            prefetch(self.placements.get(slot));
            live.objects.prefetch(slot as u32);
        }
        if let Some(&change) = changes.get(index + PREFETCH_AHEAD / 2) {
            let placement = self.placements.get(change.slot() as usize).copied().unwrap_or(NOT_ON_GPU);
            prefetch(renderer.prepared.objects.get(placement.id as usize));
        }
    }

    /// Lays the scene out from scratch: each batch key's run sized to its capacity, the spare
    /// slots filled with spares; the renderer's buffers are made anew.
    fn lay_out(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        live: &mut LiveScene,
    ) -> Result<ApplyStats, UploadError> {
        profile_scope!("live layout");
        let mut scene = live.to_scene();
        let slots: Vec<u32> = live.visible_slots().collect();
        let visible = scene.objects.len();
        // Objects per key, and a material of each key's variant for its spares.
        let mut counts: HashMap<(u32, u32), (u32, u32)> = HashMap::new();
        for object in &scene.objects {
            let key = (scene.materials[object.material as usize].variant as u32, object.mesh);
            counts.entry(key).or_insert((0, object.material)).0 += 1;
        }
        let mut keys: Vec<_> = counts.keys().copied().collect();
        keys.sort_unstable();
        let mut capacities = HashMap::with_capacity(keys.len());
        for key in keys {
            let (count, material) = counts[&key];
            let capacity = capacity_for(count, self.capacities.get(&key).copied());

            capacities.insert(key, capacity);
            let spare = Object {
                translation: glam::Vec3::ZERO,
                rotation: glam::Quat::IDENTITY,
                scale: 1.0,
                mesh: key.1,
                material,
                orbit_class: 0,
                spin_class: 0,
            };
            scene.objects.extend(std::iter::repeat_n(spare, (capacity - count) as usize));
        }
        self.capacities = capacities;

        // Each record says whether the compute rasteriser may draw it (`SOFT_BIT`), from its
        // material and mesh as they are now: a material's values change only through a new
        // layout (`Changes::tables`), and a placed or moved object's record is written again.
        let mut prepared = prepare(&scene);
        self.placements.clear();
        self.placements.resize(live.object_capacity() as usize, NOT_ON_GPU);
        self.runs.clear();
        self.run_of_key.clear();
        self.run_of_key.resize(scene.meshes.meshes.len() * VARIANT_COUNT as usize, NO_RUN);
        // Objects are in key order: a run starts where the key changes.
        let mut run_key = None;
        for (id, scene_index) in gpu_order(&scene).into_iter().enumerate() {
            let record = &mut prepared.objects[id];
            let key = (prepared.batches[record.batch as usize].variant, record.mesh);
            if run_key != Some(key) {
                run_key = Some(key);
                self.run_of_key[(key.1 * VARIANT_COUNT + key.0) as usize] = self.runs.len() as u32;
                self.runs.push(Run { batch: record.batch, spare: spare(record), free: Vec::new() });
            }
            let run_number = self.runs.len() as u32 - 1;
            if (scene_index as usize) < visible {
                self.placements[slots[scene_index as usize] as usize] = Placement { id: id as u32, run: run_number };
            } else {
                *record = spare(record);
                self.runs.last_mut().expect("pushed above").free.push(id as u32);
            }
        }
        // Free slots are taken from the end of the list: the lowest ids first.
        for run in &mut self.runs {
            run.free.reverse();
        }
        renderer.set_prepared_scene(ctx, &scene, prepared)?;
        self.laid_out = true;
        let b = &renderer.buffers;
        let upload_bytes = [&b.vertices, &b.indices, &b.objects, &b.cull_records, &b.batches, &b.materials, &b.instances]
            .iter()
            .map(|buffer| buffer.size())
            .sum::<u64>()
            + b.texture_bytes
            // Each view's visibility bits, made again with the buffers.
            + u64::from(b.object_count.max(1)) * 4 * renderer.view_count() as u64;
        Ok(ApplyStats { relaid: true, upload_bytes, objects_written: b.object_count, cells_written: 0 })
    }

    /// Object slots on the GPU, spare ones included: what the passes dispatch over.
    pub fn gpu_capacity(&self) -> u32 {
        self.capacities.values().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::capacity_for;

    #[test]
    fn capacities_double_and_shrink_lazily() {
        assert_eq!(capacity_for(3, None), 67, "a new key: its count and MIN_SPARE");
        assert_eq!(capacity_for(1000, None), 1250, "a quarter as much again");
        assert_eq!(capacity_for(1001, Some(1250)), 1250, "kept while an eighth is spare");
        assert_eq!(capacity_for(1200, Some(1250)), 2500, "doubled when nearly full");
        assert_eq!(capacity_for(1251, Some(1250)), 2500, "doubled when outgrown");
        assert_eq!(capacity_for(3000, Some(1250)), 3750, "or fitted, past double");
        assert_eq!(capacity_for(313, Some(1250)), 1250, "kept while a quarter is used");
        assert_eq!(capacity_for(300, Some(1250)), 625, "halved below a quarter");
        assert_eq!(capacity_for(19, Some(86)), 83, "not below the count and MIN_SPARE");
        assert_eq!(capacity_for(225, None), 225 + 8 * 15, "a mid-sized key: eight square roots");
    }
}
