//! Pass "build" (and "build late"): one thread per batch turns the instance counts written by
//! "cull" into `DrawIndexedIndirectArgs`, and adds the batch's objects to the drawn, per-level
//! and triangle counters of its phase.
//!
//! Compacting (`frame.compact == 1`): non-empty batches take consecutive slots of their
//! variant's range of `draws[]` with an atomicAdd on the variant's draw count, which the main
//! pass then hands to `multi_draw_indexed_indirect_count`. Empty sub-draws are not free on the
//! GPU (docs/BENCHMARKS.md § "Empty sub-draws"), so none are issued.
//!
//! Thread 0 also writes the raster pass's indirect dispatches (`write_raster_dispatch`).
//!
//! Not compacting: every batch writes its own slot, empty or not, for adapters without
//! `MULTI_DRAW_INDIRECT_COUNT`; the main pass then draws all batches of each variant.

// Bindings: groups `frame`, `cull io` and `hiz`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file (the same declarations as the cull pass).

/// The 64-bit product a × b as (low, high).
fn multiply_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let middle = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    let low = (p00 & 0xffffu) | (middle << 16u);
    let high = a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (middle >> 16u);
    return vec2<u32>(low, high);
}

fn count_triangles(instances: u32, triangles: u32) {
    let n = multiply_wide(instances, triangles);
    let old = atomicAdd(&draw_counts[COUNTER_TRIANGLES], n.x);
    let carry = select(0u, 1u, old > 0xffffffffu - n.x);
    if n.y + carry > 0u {
        atomicAdd(&draw_counts[COUNTER_TRIANGLES + 1u], n.y + carry);
    }
}

/// The workgroups of a raster dispatch over entries `first..total` of a part of the list: one
/// per object, split over y past the per-dimension limit.
fn raster_workgroups(first: u32, total: u32) -> vec3<u32> {
    let n = total - min(first, total);
    let rows = (n + MAX_WORKGROUPS_PER_DIMENSION - 1u) / MAX_WORKGROUPS_PER_DIMENSION;
    return vec3<u32>(min(n, MAX_WORKGROUPS_PER_DIMENSION), rows, 1u);
}

/// The raster pass's indirect dispatches for this phase (`raster_args`), one per part of the
/// list (the objects without an alpha test, then the masked ones): a workgroup per object the
/// cull pass listed in it this phase; and the resolve's indirect draw, one full-screen triangle
/// for everything listed so far (the last phase's is used), or none when nothing was. The first
/// phase also notes where each part ends (`COUNTER_SOFT_EARLY`, `COUNTER_SOFT_MASKED_EARLY`),
/// where the second phase's entries start. Each part's count, which counted the objects the
/// cull found no room for too (the hardware drew them), becomes what the part holds.
fn write_raster_dispatch(late: bool) {
    let total = min(atomicLoad(&draw_counts[COUNTER_SOFT]), frame.soft_masked_base);
    let masked_total = min(atomicLoad(&draw_counts[COUNTER_SOFT_MASKED]), frame.soft_masked_capacity);
    atomicStore(&draw_counts[COUNTER_SOFT], total);
    atomicStore(&draw_counts[COUNTER_SOFT_MASKED], masked_total);
    var first = 0u;
    var masked_first = 0u;
    if late {
        first = atomicLoad(&draw_counts[COUNTER_SOFT_EARLY]);
        masked_first = atomicLoad(&draw_counts[COUNTER_SOFT_MASKED_EARLY]);
    } else {
        atomicStore(&draw_counts[COUNTER_SOFT_EARLY], total);
        atomicStore(&draw_counts[COUNTER_SOFT_MASKED_EARLY], masked_total);
    }
    let plain = raster_workgroups(first, total);
    let masked = raster_workgroups(masked_first, masked_total);
    var args: RasterArgs;
    args.workgroups_x = plain.x;
    args.workgroups_y = plain.y;
    args.workgroups_z = plain.z;
    args.vertex_count = select(0u, 3u, total + masked_total > 0u);
    args.instance_count = 1u;
    args.masked_workgroups_x = masked.x;
    args.masked_workgroups_y = masked.y;
    args.masked_workgroups_z = masked.z;
    raster_args[0] = args;
}

fn build_phase(gid: vec3<u32>, drawn_counter: u32) {
    let id = gid.x + gid.y * frame.dispatch_width;
    if id == 0u {
        write_raster_dispatch(drawn_counter == COUNTER_DRAWN_LATE);
    }
    if id >= frame.batch_count {
        return;
    }
    let batch = batches[id];
    let count = min(atomicLoad(&batch_counts[id]), batch.capacity);
    var args: DrawIndexedIndirectArgs;
    args.index_count = batch.index_count;
    args.instance_count = count;
    args.first_index = batch.first_index;
    args.base_vertex = batch.base_vertex;
    args.first_instance = batch.first_instance;
    if count > 0u {
        atomicAdd(&draw_counts[drawn_counter], count);
        atomicAdd(&draw_counts[COUNTER_LEVELS + min(batch.level, LOD_LEVELS - 1u)], count);
        count_triangles(count, batch.index_count / 3u);
    }
    if frame.compact != 0u {
        if count > 0u {
            let slot = atomicAdd(&draw_counts[batch.variant], 1u);
            draws[batch.variant_first_batch + slot] = args;
        }
    } else {
        draws[id] = args;
    }
}

/// The first phase, or the only one without occlusion culling.
/// The pipeline's phase, set by `passes::build` through an override constant: the second
/// phase counts into its own drawn counter.
override LATE: bool = false;

@compute @workgroup_size(WORKGROUP_SIZE)
fn build(@builtin(global_invocation_id) gid: vec3<u32>) {
    build_phase(gid, select(COUNTER_DRAWN_EARLY, COUNTER_DRAWN_LATE, LATE));
}
