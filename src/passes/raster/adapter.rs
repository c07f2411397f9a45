//! What the compute rasteriser does differently on a CPU adapter (lavapipe), which runs a
//! workgroup's invocations as vectors of lanes, and on a GPU: each choice is made here, from the
//! adapter's device type, once when the pipelines are made (`RasterPass::new`).

use crate::passes::env_switch;
use crate::tunables::{CPU_RASTER_WORKGROUP_SIZE, RASTER_WORKGROUP_SIZE};

/// Whether the compute rasteriser draws the objects of masked materials apart on an adapter
/// of `device_type`: listed in a part of the list of their own and drawn by a pipeline and a
/// dispatch of their own, so that the other objects' pipeline holds none of the alpha test's
/// code. On a CPU adapter (lavapipe), which runs a workgroup's invocations as vectors, that code
/// slows every object: apart, the default scene's frame with the compute rasteriser took less
/// than half the time by the wall clock. On the H100 the second dispatch and the barrier
/// before it cost more than the registers save (docs/BENCHMARKS.md § "Masked objects in a
/// raster pipeline of their own").
pub fn masked_apart(device_type: wgpu::DeviceType) -> bool {
    device_type == wgpu::DeviceType::Cpu
}

/// Threads per workgroup of the raster pipelines on an adapter of `device_type`: a thread per
/// triangle of the object in turn, 32 (`RASTER_WORKGROUP_SIZE`, NVIDIA's subgroup), and on a
/// CPU adapter the width of its vectors (`CPU_RASTER_WORKGROUP_SIZE`).
pub fn raster_lanes(device_type: wgpu::DeviceType) -> u32 {
    if device_type == wgpu::DeviceType::Cpu {
        CPU_RASTER_WORKGROUP_SIZE
    } else {
        RASTER_WORKGROUP_SIZE
    }
}

/// Whether the raster pipelines on an adapter of `device_type` walk a triangle's box in one
/// loop over its pixels (`shaders/raster.wgsl`'s `FLAT_BOX`): on a CPU adapter, whose lanes run
/// as one vector and so take as many steps together as the tallest box among them times the
/// widest row in a loop over rows; a GPU's loop over rows costs less (docs/BENCHMARKS.md §
/// "One loop over the box"). `MULTIDRAW_FLAT_BOX=on|off` overrides it, for comparisons and
/// so that a CPU adapter can test the GPU's walk (`tests/raster.rs`).
pub fn flat_box(device_type: wgpu::DeviceType) -> bool {
    env_switch("MULTIDRAW_FLAT_BOX").unwrap_or(device_type == wgpu::DeviceType::Cpu)
}
