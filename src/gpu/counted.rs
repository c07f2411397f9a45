//! Every buffer the engine creates goes through here and is counted, so a soak run can show
//! that no buffer is re-created per frame (wgpu's own counters only give the live count, which
//! stays flat even when a buffer is replaced every frame).

use std::sync::atomic::{AtomicU64, Ordering};

use wgpu::util::DeviceExt;

static CREATED: AtomicU64 = AtomicU64::new(0);

pub fn buffer(device: &wgpu::Device, descriptor: &wgpu::BufferDescriptor<'_>) -> wgpu::Buffer {
    CREATED.fetch_add(1, Ordering::Relaxed);
    device.create_buffer(descriptor)
}

pub fn buffer_init(device: &wgpu::Device, descriptor: &wgpu::util::BufferInitDescriptor<'_>) -> wgpu::Buffer {
    CREATED.fetch_add(1, Ordering::Relaxed);
    device.create_buffer_init(descriptor)
}

/// Buffers the engine has created in this process, on any device.
pub fn buffers_created() -> u64 {
    CREATED.load(Ordering::Relaxed)
}
