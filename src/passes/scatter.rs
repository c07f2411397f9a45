//! Pass "scatter" (`shaders/scatter.wgsl`): object records changed between frames
//! ([`ObjectUpdates`], filled through `Renderer::set_object`) go up gathered into one
//! contiguous `write_buffer` (each record with the id it replaces, its slot in the cull's order
//! and the cull's words of it, `GpuCullRecord`, then the new bounds of the cells of the cull's
//! hierarchy that hold them, `gpu_scene::cells`), and one dispatch copies them into `objects[]`
//! and `cull_records[]` ahead of the frame's other passes.
//!
//! Why gather and scatter: changes of a live scene land anywhere in `objects[]` (objects are
//! sorted by batch, and every batch churns), so writing them in place takes a copy (or a
//! `write_buffer`) per run of nearby ids, and how many runs there are, and how much unchanged
//! data between them goes up too, depends on how the changes spread over the scene
//! (docs/BENCHMARKS.md, "Churn", has the numbers before and after). Here the upload is the
//! changed records and their ids and nothing else, the CPU's work and the upload's size
//! depend on the number of changes only, and the frame records the same commands whatever
//! that number (the pass, `set_pipeline`, `set_bind_group`, `dispatch`). A frame without
//! changes records nothing here.
//!
//! An id set several times before a frame goes up once, with its last record. Past half the
//! scene's records changed, the whole array is written instead (one `write_buffer` of the host
//! copy, which is then smaller than the gathered records with their ids).

use crate::gpu::commands::{dispatch_size, FrameEncoder};
use crate::gpu::counted;
use crate::gpu_scene::layout::{Layouts, SCATTER_IO};
use crate::gpu_scene::shader::PassShader;
use crate::gpu_scene::types::{GpuCullRecord, GpuObject};
use crate::gpu_scene::upload::{NO_OBJECT, UPDATE_HEADER_WORDS, UPDATE_WORDS};
use crate::gpu_scene::SceneBuffers;
use crate::pipelines::{compute_all, compute_spec, PipelineCache, PipelineError};
use crate::tunables::CELL_OBJECTS;
use bytemuck::Zeroable;

/// The pass's wgpu label, puffin scope and GPU timestamp name.
pub const NAME: &str = "scatter";

pub const SHADER: PassShader = PassShader {
    file: "shaders/scatter.wgsl",
    body: include_str!("../../shaders/scatter.wgsl"),
    groups: &[&SCATTER_IO],
};

/// Bytes of the upload's header.
pub const HEADER_BYTES: usize = UPDATE_HEADER_WORDS as usize * 4;
/// Bytes per gathered record: its id, its slot in the cull order, then the record and its cull
/// record (or, for a cell, `NO_OBJECT`, the cell's slot, zeros and the cell's record).
pub const UPDATE_BYTES: usize = UPDATE_WORDS as usize * 4;
/// Records the upload buffer holds at first; it grows by doubling.
const MIN_UPDATE_CAPACITY: u32 = 256;

pub struct ScatterPass {
    pipeline: wgpu::ComputePipeline,
    workgroup_size: u32,
}

impl ScatterPass {
    pub fn new(cache: &PipelineCache, layouts: &Layouts, workgroup_size: u32) -> Result<Self, PipelineError> {
        let shader = SHADER.spec(workgroup_size);
        let spec = compute_spec(NAME, &layouts.scatter, &shader, "scatter");
        let pipeline = compute_all(cache, &[spec]).pop().expect("one result per spec")?;
        Ok(Self { pipeline, workgroup_size })
    }

    /// Runs the pipeline once (see `frame::prewarm`): the upload's header says zero records,
    /// so nothing is written.
    pub fn prewarm(&self, frame: &mut FrameEncoder<'_>, updates: &ObjectUpdates) {
        let mut pass = frame.compute_pass(NAME);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(SCATTER_IO.index, &updates.bind_group);
        pass.dispatch(1, 1);
    }

    /// Copies the records of the last [`ObjectUpdates::flush`] into place, and starts a new
    /// gathering. Records nothing when nothing changed.
    pub fn record(&self, frame: &mut FrameEncoder<'_>, updates: &mut ObjectUpdates) {
        debug_assert!(!updates.has_unflushed(), "records set after the frame's flush would be lost");
        debug_assert_eq!(updates.workgroup_size, self.workgroup_size, "the header's rows follow this pass");
        let records = std::mem::take(&mut updates.uploaded_records);
        updates.clear();
        if records == 0 {
            return;
        }
        profile_scope!(NAME);
        let (x, y, _) = dispatch_size(records, self.workgroup_size);
        let mut pass = frame.compute_pass(NAME);
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(SCATTER_IO.index, &updates.bind_group);
        pass.dispatch(x, y);
    }
}

/// What one [`ObjectUpdates::flush`] uploaded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UploadStats {
    /// Bytes written with `write_buffer`.
    pub bytes: u64,
    /// Distinct object records they hold.
    pub records: u32,
    /// Cells of the cull's hierarchy whose bounds they hold (`gpu_scene::cells`).
    pub cells: u32,
    /// Whether the whole `objects[]` (and `cull_records[]`) was written instead of gathered
    /// records.
    pub whole: bool,
}

/// Object records set since the last frame, and the buffer they go up in.
pub struct ObjectUpdates {
    /// Ids set since the last recorded scatter, in the order they were set (an id may repeat;
    /// its last record wins).
    ids: Vec<u32>,
    /// The record set with each of `ids`.
    records: Vec<GpuObject>,
    /// How many of `ids` the last flush uploaded; the next flush uploads again if more came.
    flushed: usize,
    /// Records in the upload (objects' and cells'), for the next scatter to dispatch over (0:
    /// none).
    uploaded_records: u32,
    /// One bit per object id, set while packing to keep each id's last record only.
    taken: Vec<u64>,
    /// The upload: header, then per record its id, its slot and its words. Reused every frame.
    bytes: Vec<u8>,
    /// The upload's GPU copy: written by [`ObjectUpdates::flush`], read by the scatter pass.
    /// Grows by doubling, so it settles at the churn's size.
    buffer: wgpu::Buffer,
    /// Records `buffer` holds.
    capacity: u32,
    /// `buffer` and the scene's `objects[]` and `cull_records[]`.
    bind_group: wgpu::BindGroup,
    /// Objects of the scene `objects[]` holds.
    object_count: u32,
    /// Threads per workgroup of the scatter pipeline, which the header's row width follows.
    workgroup_size: u32,
    /// The most records an upload buffer may hold within the device's storage binding and
    /// buffer limits; more go up as the whole array.
    max_records: u32,
}

fn upload_buffer(device: &wgpu::Device, capacity: u32) -> wgpu::Buffer {
    counted::buffer(
        device,
        &wgpu::BufferDescriptor {
            label: Some("object updates"),
            size: (HEADER_BYTES + capacity as usize * UPDATE_BYTES) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        },
    )
}

fn bind_group(
    device: &wgpu::Device,
    layouts: &Layouts,
    buffer: &wgpu::Buffer,
    buffers: &SceneBuffers,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(SCATTER_IO.label),
        layout: &layouts.scatter_io,
        entries: &[
            SCATTER_IO.buffer("updates", buffer),
            SCATTER_IO.buffer("object_words", &buffers.objects),
            SCATTER_IO.buffer("cull_words", &buffers.cull_records),
        ],
    })
}

impl ObjectUpdates {
    /// Nothing to upload yet, for the scene in `buffers` and a scatter pass of
    /// `workgroup_size`.
    pub fn new(device: &wgpu::Device, layouts: &Layouts, buffers: &SceneBuffers, workgroup_size: u32) -> Self {
        let limits = device.limits();
        let largest = (limits.max_storage_buffer_binding_size as u64).min(limits.max_buffer_size);
        let max_records = ((largest - HEADER_BYTES as u64) / UPDATE_BYTES as u64).min(u32::MAX as u64) as u32;
        let buffer = upload_buffer(device, MIN_UPDATE_CAPACITY);
        Self {
            ids: Vec::new(),
            records: Vec::new(),
            flushed: 0,
            uploaded_records: 0,
            taken: vec![0; buffers.object_count.div_ceil(64) as usize],
            bytes: Vec::new(),
            bind_group: bind_group(device, layouts, &buffer, buffers),
            buffer,
            capacity: MIN_UPDATE_CAPACITY,
            object_count: buffers.object_count,
            workgroup_size,
            max_records,
        }
    }

    /// Follows a new upload of the whole scene: what was gathered is dropped (the upload holds
    /// it), the bind group names the new `objects[]`.
    pub fn rebind(&mut self, device: &wgpu::Device, layouts: &Layouts, buffers: &SceneBuffers) {
        self.clear();
        self.uploaded_records = 0;
        self.object_count = buffers.object_count;
        self.taken.clear();
        self.taken.resize(buffers.object_count.div_ceil(64) as usize, 0);
        self.bind_group = bind_group(device, layouts, &self.buffer, buffers);
    }

    /// Replaces object `id`'s record with the next scatter. The caller keeps the host copy.
    pub fn set(&mut self, id: u32, record: GpuObject) {
        debug_assert!(id < self.object_count, "object {id} of {}", self.object_count);
        self.ids.push(id);
        self.records.push(record);
    }

    /// Whether records were set since the last flush.
    pub fn has_unflushed(&self) -> bool {
        self.ids.len() > self.flushed
    }

    fn clear(&mut self) {
        self.ids.clear();
        self.records.clear();
        self.flushed = 0;
    }

    /// Uploads every record set since the last recorded scatter, each id once with its last
    /// record; `host` (the scene's records, already holding them) is written whole instead when
    /// more than half of it changed (or more than an upload buffer may hold). Does nothing when nothing was set since the last flush.
    /// Flushing twice before a frame uploads everything again, so nothing set in between is
    /// lost: the second `write_buffer` replaces the first before the frame runs.
    pub fn flush(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        layouts: &Layouts,
        buffers: &SceneBuffers,
        host: &[GpuObject],
    ) -> UploadStats {
        if !self.has_unflushed() {
            return UploadStats::default();
        }
        profile_function!();
        self.flushed = self.ids.len();
        self.bytes.clear();
        self.bytes.resize(HEADER_BYTES, 0);
        self.bytes.reserve(self.ids.len() * UPDATE_BYTES);
        let order = &buffers.cull_order;
        let mut cells = Vec::new();
        // Latest first, so each id's last record is the one kept.
        for (&id, record) in self.ids.iter().zip(&self.records).rev() {
            let (word, bit) = ((id / 64) as usize, 1u64 << (id % 64));
            if self.taken[word] & bit == 0 {
                self.taken[word] |= bit;
                let slot = order.slots[id as usize];
                self.bytes.extend_from_slice(&id.to_le_bytes());
                self.bytes.extend_from_slice(&slot.to_le_bytes());
                self.bytes.extend_from_slice(bytemuck::bytes_of(record));
                self.bytes.extend_from_slice(bytemuck::bytes_of(&GpuCullRecord::of(record)));
                cells.push(slot / CELL_OBJECTS);
            }
        }
        for &id in &self.ids {
            self.taken[(id / 64) as usize] = 0;
        }
        let objects = (self.bytes.len() - HEADER_BYTES) / UPDATE_BYTES;
        if objects > self.object_count as usize / 2 || objects > self.max_records as usize {
            return self.write_whole(queue, buffers, host, objects as u32);
        }
        // The cells of the changed objects, their bounds made again from the host's records
        // (which hold the changes): records with no object, into the cells' slots.
        cells.sort_unstable();
        cells.dedup();
        let cell_count = cells.len();
        for cell in cells {
            self.bytes.extend_from_slice(&NO_OBJECT.to_le_bytes());
            self.bytes.extend_from_slice(&(self.object_count + cell).to_le_bytes());
            self.bytes.extend_from_slice(bytemuck::bytes_of(&GpuObject::zeroed()));
            self.bytes.extend_from_slice(bytemuck::bytes_of(&order.cell(host, cell as usize)));
        }
        let records = ((self.bytes.len() - HEADER_BYTES) / UPDATE_BYTES) as u32;
        if records > self.max_records {
            // The changed objects' cells took them past what an upload may hold.
            return self.write_whole(queue, buffers, host, objects as u32);
        }
        let (_, _, row_threads) = dispatch_size(records, self.workgroup_size);
        self.bytes[0..4].copy_from_slice(&records.to_le_bytes());
        self.bytes[4..8].copy_from_slice(&row_threads.to_le_bytes());
        if records > self.capacity {
            self.capacity = records.next_power_of_two().min(self.max_records);
            self.buffer = upload_buffer(device, self.capacity);
            self.bind_group = bind_group(device, layouts, &self.buffer, buffers);
        }
        queue.write_buffer(&self.buffer, 0, &self.bytes);
        self.uploaded_records = records;
        UploadStats { bytes: self.bytes.len() as u64, records: objects as u32, cells: cell_count as u32, whole: false }
    }

    /// Writes `host` (the scene's records, holding every change) whole into `objects[]`, and
    /// every cull record and cell with it, in place of gathered records (`changed` of them).
    fn write_whole(
        &mut self,
        queue: &wgpu::Queue,
        buffers: &SceneBuffers,
        host: &[GpuObject],
        changed: u32,
    ) -> UploadStats {
        let cull_records = buffers.cull_order.records(host);
        queue.write_buffer(&buffers.objects, 0, bytemuck::cast_slice(host));
        queue.write_buffer(&buffers.cull_records, 0, bytemuck::cast_slice(&cull_records));
        self.uploaded_records = 0;
        let bytes = std::mem::size_of_val(host) + std::mem::size_of_val(cull_records.as_slice());
        UploadStats { bytes: bytes as u64, records: changed, cells: 0, whole: true }
    }
}
