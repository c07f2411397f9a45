//! Mirrors a [`LiveScene`]'s changes into a [`Renderer`]'s scene buffers between frames.
//!
//! Layout: objects stay sorted by batch key (variant, mesh) as the passes need, but each key's
//! run has spare slots: its *capacity* is a quarter more than its object count when laid out
//! (the room the churn of a steady scene wanders in without outgrowing it). A spare slot
//! holds an object that can never be drawn (negative bounding radius, so every frustum test
//! rejects it, and a zero model matrix, so even unculled frames rasterise nothing). The
//! passes dispatch over every slot, spare ones included; their commands do not change.
//!
//! Per frame: a removed (or hidden) object's GPU slot is overwritten with a spare and goes on
//! its key's free list; an added object takes a free slot of its key; a moved one is rewritten
//! where it is. The changed GPU ids are sorted and runs of nearby ids coalesced; the changed
//! records go up in one `write_buffer` into a staging buffer and are copied into place, one
//! copy per run, in a small submit of their own before the frame's. The host copy the cpu and
//! bundle modes cull from is updated in the same place.
//!
//! Only when a key has no free slot (its capacity doubles: spawning is amortised O(1)), or the
//! mesh or material tables change, is the scene laid out again and its buffers made anew.
//! Capacities shrink lazily, at such a layout, for keys using under a quarter of theirs.

use std::collections::HashMap;
use std::ops::Range;

use glam::{Mat4, Vec4};

use super::{Change, Changes, LiveScene};
use crate::frame::Renderer;
use crate::gpu::GpuContext;
use crate::gpu_scene::buffers::OBJECT_BYTES;
use crate::gpu_scene::prepare::{gpu_object_in, gpu_order, prepare};
use crate::gpu_scene::types::GpuObject;
use crate::gpu_scene::UploadError;
use crate::scene::Object;

/// Ids closer than this are written in one call (rewriting the unchanged records between
/// them costs less than another call).
const COALESCE_GAP: u32 = 8;

/// GPU id of a slot that is not on the GPU (free or hidden).
const NOT_ON_GPU: u32 = u32::MAX;

/// The least spare room a batch key's run is laid out with.
const MIN_SPARE: u32 = 16;

/// What applying one frame's changes did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ApplyStats {
    /// The scene was laid out again and its buffers made anew.
    pub relaid: bool,
    /// Bytes written to the GPU.
    pub upload_bytes: u64,
    /// `write_buffer` calls of the in-place path (one: the changed records, packed).
    pub writes: u32,
    /// Buffer copies of the in-place path: one per coalesced range of changed records.
    pub copies: u32,
    /// Object records rewritten in place.
    pub objects_written: u32,
}

/// One batch key's run of GPU slots.
#[derive(Clone, Debug, Default)]
struct Run {
    /// The level-0 batch of the key, as every object record of the run names it.
    batch: u32,
    /// Spare GPU ids of the run.
    free: Vec<u32>,
}

/// The link between a live scene's object slots and the ids the renderer's passes use.
#[derive(Clone, Debug, Default)]
pub struct LiveSync {
    /// GPU id per object slot, or [`NOT_ON_GPU`].
    gpu_ids: Vec<u32>,
    /// Run per batch key (variant, mesh).
    runs: HashMap<(u32, u32), Run>,
    /// Capacity per batch key, kept across layouts so they grow by doubling.
    capacities: HashMap<(u32, u32), u32>,
    /// Whether a layout has been made.
    laid_out: bool,
    /// This frame's changes, reused.
    changes: Changes,
    /// This frame's changed GPU ids, reused.
    dirty: Vec<u32>,
    /// This frame's coalesced ranges, reused.
    ranges: Vec<Range<u32>>,
    /// This frame's changed records, packed, reused.
    packed: Vec<u8>,
    /// Where the packed records are written, to be copied into place; grows by doubling.
    staging: Option<wgpu::Buffer>,
}

/// A record no frame draws: see the module docs.
fn spare(record: &GpuObject) -> GpuObject {
    GpuObject { model: Mat4::ZERO, bounds: Vec4::new(0.0, 0.0, 0.0, -1.0e30), animation: 0, ..*record }
}

/// The capacity a run is laid out with for `count` objects: a quarter as much again (at
/// least [`MIN_SPARE`]), so a key whose count wanders a little does not outgrow its run again
/// and again.
fn fit(count: u32) -> u32 {
    count.saturating_add((count / 4).max(MIN_SPARE))
}

/// A run's capacity for `count` objects at a layout, given its `current` one: kept while it
/// fits and at least a quarter is used; doubled (or fitted, if more) when outgrown, so
/// spawning is amortised O(1); fitted anew for a new key or a run under a quarter used
/// (shrinking lazily).
fn capacity_for(count: u32, current: Option<u32>) -> u32 {
    match current {
        Some(current) if count <= current && count.saturating_mul(4) >= current => current,
        Some(current) if count > current => current.saturating_mul(2).max(fit(count)),
        _ => fit(count),
    }
}

impl LiveSync {
    /// A link that knows nothing yet: the first [`LiveSync::apply`] lays the whole scene out.
    pub fn new() -> Self {
        Self::default()
    }

    /// Brings `renderer`'s scene up to date with `live`'s changes since the last call.
    pub fn apply(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        live: &mut LiveScene,
    ) -> Result<ApplyStats, UploadError> {
        puffin::profile_function!();
        live.take_changes(&mut self.changes);
        if self.changes.tables || !self.laid_out {
            return self.lay_out(ctx, renderer, live);
        }
        if self.gpu_ids.len() < live.object_capacity() as usize {
            self.gpu_ids.resize(live.object_capacity() as usize, NOT_ON_GPU);
        }
        self.dirty.clear();
        let objects = &mut renderer.prepared.objects;
        let mut out_of_room = false;
        for &change in &self.changes.objects {
            match change {
                Change::Gone(slot) => {
                    let id = std::mem::replace(&mut self.gpu_ids[slot as usize], NOT_ON_GPU);
                    if id == NOT_ON_GPU {
                        continue;
                    }
                    let record = &mut objects[id as usize];
                    *record = spare(record);
                    let key = (renderer.prepared.batches[record.batch as usize].variant, record.mesh);
                    self.runs.get_mut(&key).expect("every placed object has a run").free.push(id);
                    self.dirty.push(id);
                }
                Change::Placed(slot) => {
                    if self.gpu_ids[slot as usize] != NOT_ON_GPU {
                        continue;
                    }
                    let Some(key) = live.batch_key(slot) else { continue };
                    let Some((run, id)) = self.runs.get_mut(&key).and_then(|run| Some((run.batch, run.free.pop()?)))
                    else {
                        out_of_room = true;
                        break;
                    };
                    let object = live.scene_object(slot).expect("a placed slot holds an object");
                    objects[id as usize] = gpu_object_in(live.meshes(), false, &object, run);
                    self.gpu_ids[slot as usize] = id;
                    self.dirty.push(id);
                }
                Change::Moved(slot) => {
                    let id = self.gpu_ids[slot as usize];
                    let Some(object) = live.scene_object(slot).filter(|_| id != NOT_ON_GPU) else { continue };
                    let record = &mut objects[id as usize];
                    *record = gpu_object_in(live.meshes(), false, &object, record.batch);
                    self.dirty.push(id);
                }
            }
        }
        if out_of_room {
            // A key's run is full (or new): lay out again, its capacity doubled.
            return self.lay_out(ctx, renderer, live);
        }
        self.dirty.sort_unstable();
        self.dirty.dedup();
        coalesce(&self.dirty, COALESCE_GAP, &mut self.ranges);
        let mut stats = ApplyStats { objects_written: self.dirty.len() as u32, ..ApplyStats::default() };
        if self.ranges.is_empty() {
            return Ok(stats);
        }
        // One write of the changed records, packed, then one copy per range: a `write_buffer`
        // per range costs a staging allocation each (thousands per frame when changes are
        // spread over the scene), a copy command far less.
        self.packed.clear();
        for range in &self.ranges {
            let records = &renderer.prepared.objects[range.start as usize..range.end as usize];
            self.packed.extend_from_slice(bytemuck::cast_slice(records));
        }
        let needed = self.packed.len() as u64;
        if self.staging.as_ref().is_none_or(|b| b.size() < needed) {
            let size = needed.next_power_of_two().max(OBJECT_BYTES * 64);
            self.staging = Some(crate::gpu::counted::buffer(
                &ctx.device,
                &wgpu::BufferDescriptor {
                    label: Some("live changes"),
                    size,
                    usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                },
            ));
        }
        let staging = self.staging.as_ref().expect("made above");
        ctx.queue.write_buffer(staging, 0, &self.packed);
        let mut encoder = ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("live") });
        let mut offset = 0;
        for range in &self.ranges {
            let size = (range.end - range.start) as u64 * OBJECT_BYTES;
            let destination = range.start as u64 * OBJECT_BYTES;
            encoder.copy_buffer_to_buffer(staging, offset, &renderer.buffers.objects, destination, size);
            offset += size;
        }
        ctx.queue.submit([encoder.finish()]);
        stats.upload_bytes = needed;
        stats.writes = 1;
        stats.copies = self.ranges.len() as u32;
        renderer.invalidate_bundle();
        Ok(stats)
    }

    /// Lays the scene out from scratch: each batch key's run sized to its capacity, the spare
    /// slots filled with spares; the renderer's buffers are made anew.
    fn lay_out(
        &mut self,
        ctx: &GpuContext,
        renderer: &mut Renderer,
        live: &mut LiveScene,
    ) -> Result<ApplyStats, UploadError> {
        puffin::profile_scope!("live layout");
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

        let mut prepared = prepare(&scene);
        self.gpu_ids.clear();
        self.gpu_ids.resize(live.object_capacity() as usize, NOT_ON_GPU);
        self.runs.clear();
        for (id, scene_index) in gpu_order(&scene).into_iter().enumerate() {
            let record = &mut prepared.objects[id];
            let key = (prepared.batches[record.batch as usize].variant, record.mesh);
            let run = self.runs.entry(key).or_insert_with(|| Run { batch: record.batch, free: Vec::new() });
            if (scene_index as usize) < visible {
                self.gpu_ids[slots[scene_index as usize] as usize] = id as u32;
            } else {
                *record = spare(record);
                run.free.push(id as u32);
            }
        }
        // Free slots are taken from the end of the list: the lowest ids first.
        for run in self.runs.values_mut() {
            run.free.reverse();
        }
        renderer.set_prepared_scene(ctx, &scene, prepared)?;
        self.laid_out = true;
        let b = &renderer.buffers;
        let upload_bytes = [&b.vertices, &b.indices, &b.objects, &b.batches, &b.materials, &b.instances, &b.visibility]
            .iter()
            .map(|buffer| buffer.size())
            .sum::<u64>()
            + b.texture_bytes;
        Ok(ApplyStats { relaid: true, upload_bytes, writes: 0, copies: 0, objects_written: b.object_count })
    }

    /// Object slots on the GPU, spare ones included: what the passes dispatch over.
    pub fn gpu_capacity(&self) -> u32 {
        self.capacities.values().sum()
    }
}

/// Sorted, distinct ids as ranges, joining ids less than `gap` apart.
pub fn coalesce(ids: &[u32], gap: u32, ranges: &mut Vec<Range<u32>>) {
    ranges.clear();
    for &id in ids {
        match ranges.last_mut() {
            Some(last) if id < last.end + gap => last.end = id + 1,
            _ => ranges.push(id..id + 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{capacity_for, coalesce};

    #[test]
    fn nearby_ids_share_a_range() {
        let mut ranges = Vec::new();
        coalesce(&[1, 2, 3, 9, 40, 41], 8, &mut ranges);
        assert_eq!(ranges, vec![1..10, 40..42]);
    }

    #[test]
    fn capacities_double_and_shrink_lazily() {
        assert_eq!(capacity_for(3, None), 19, "a new key: its count and MIN_SPARE");
        assert_eq!(capacity_for(1000, None), 1250, "a quarter as much again");
        assert_eq!(capacity_for(1001, Some(1250)), 1250, "kept while it fits");
        assert_eq!(capacity_for(1251, Some(1250)), 2500, "doubled when outgrown");
        assert_eq!(capacity_for(3000, Some(1250)), 3750, "or fitted, past double");
        assert_eq!(capacity_for(313, Some(1250)), 1250, "kept while a quarter is used");
        assert_eq!(capacity_for(300, Some(1250)), 375, "shrunk below a quarter");
    }
}
