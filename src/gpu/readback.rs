//! Reading GPU buffers back: a blocking read for tests and tools, and a ring of staging
//! buffers for per-frame statistics that never stalls the frame.

use crate::tunables::READBACK_RING;

/// Copies `size` bytes of `source` from `offset` into a staging buffer, waits, returns them.
pub fn read_buffer(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    source: &wgpu::Buffer,
    offset: u64,
    size: u64,
) -> Vec<u8> {
    let staging = staging_buffer(device, "readback staging", size);
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("readback") });
    encoder.copy_buffer_to_buffer(source, offset, &staging, 0, size);
    let index = queue.submit([encoder.finish()]);
    map_and_read(device, &staging, Some(index))
}

/// A `MAP_READ | COPY_DST` buffer of `size` bytes to copy GPU data into.
pub fn staging_buffer(device: &wgpu::Device, label: &str, size: u64) -> wgpu::Buffer {
    crate::gpu::counted::buffer(
        device,
        &wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        },
    )
}

/// Maps `staging` once submission `index` (which copies into it) is done, and returns its bytes.
pub fn map_and_read(device: &wgpu::Device, staging: &wgpu::Buffer, index: Option<wgpu::SubmissionIndex>) -> Vec<u8> {
    staging.slice(..).map_async(wgpu::MapMode::Read, |result| {
        result.expect("mapping a MAP_READ staging buffer after its copy cannot fail");
    });
    let _ = device.poll(wgpu::PollType::Wait { submission_index: index, timeout: None });
    let data = staging.slice(..).get_mapped_range().to_vec();
    staging.unmap();
    data
}

/// Per-frame readbacks, `READBACK_RING` frames deep: frame K copies into slot K mod N and
/// its bytes are collected once the GPU is done, a frame or two later.
pub struct ReadbackRing {
    slots: Vec<Slot>,
    next: usize,
    size: u64,
    /// Whether [`ReadbackRing::begin`] handed out the current slot for the frame being recorded.
    armed: bool,
}

struct Slot {
    buffer: wgpu::Buffer,
    /// Frame number whose data the slot holds, while a copy is in flight or mapped.
    pending: Option<u64>,
    ready: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl ReadbackRing {
    pub fn new(device: &wgpu::Device, label: &str, size: u64) -> Self {
        let slots = (0..READBACK_RING)
            .map(|_| Slot { buffer: staging_buffer(device, label, size), pending: None, ready: Default::default() })
            .collect();
        Self { slots, next: 0, size, armed: false }
    }

    /// The staging buffer for this frame's copy, or `None` when every slot is still in flight
    /// (the frame then simply records no readback).
    pub fn begin(&mut self, frame: u64) -> Option<&wgpu::Buffer> {
        let slot = &mut self.slots[self.next];
        if slot.pending.is_some() {
            return None;
        }
        slot.pending = Some(frame);
        slot.ready.store(false, std::sync::atomic::Ordering::Release);
        self.armed = true;
        Some(&slot.buffer)
    }

    /// After the submit that contains the copy from [`ReadbackRing::begin`]: maps the slot.
    pub fn submitted(&mut self) {
        if std::mem::take(&mut self.armed) {
            let slot = &mut self.slots[self.next];
            let ready = slot.ready.clone();
            slot.buffer.slice(..).map_async(wgpu::MapMode::Read, move |result| {
                if result.is_ok() {
                    ready.store(true, std::sync::atomic::Ordering::Release);
                }
            });
            self.next = (self.next + 1) % self.slots.len();
        }
    }

    /// Every finished readback as (frame, bytes), oldest first. Polls without blocking.
    pub fn collect(&mut self, device: &wgpu::Device) -> Vec<(u64, Vec<u8>)> {
        let _ = device.poll(wgpu::PollType::Poll);
        let mut done: Vec<(u64, Vec<u8>)> = Vec::new();
        for slot in &mut self.slots {
            if let Some(frame) = slot.pending {
                if slot.ready.load(std::sync::atomic::Ordering::Acquire) {
                    let data = slot.buffer.slice(..).get_mapped_range().to_vec();
                    slot.buffer.unmap();
                    slot.pending = None;
                    done.push((frame, data));
                }
            }
        }
        done.sort_by_key(|(frame, _)| *frame);
        done
    }

    pub fn size(&self) -> u64 {
        self.size
    }
}
