//! Pass "build": one thread per batch turns the instance counts written by "cull" into
//! `DrawIndexedIndirectArgs`.
//!
//! Compacting (`frame.compact == 1`): non-empty batches take consecutive slots of their
//! variant's range of `draws[]` with an atomicAdd on the variant's draw count, which the main
//! pass then hands to `multi_draw_indexed_indirect_count`. Empty sub-draws are not free on the
//! GPU (DESIGN.md: 4.3 ms for 1M mostly-empty sub-draws on an H200), so none are issued.
//!
//! Not compacting: every batch writes its own slot, empty or not, for adapters without
//! `MULTI_DRAW_INDIRECT_COUNT`; the main pass then draws all batches of each variant.

// Bindings: groups `frame` and `cull io`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file (the same declarations as the cull pass).

@compute @workgroup_size(WORKGROUP_SIZE)
fn build(@builtin(global_invocation_id) gid: vec3<u32>) {
    let id = gid.x + gid.y * frame.dispatch_width;
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
    if frame.compact != 0u {
        if count > 0u {
            let slot = atomicAdd(&draw_counts[batch.variant], 1u);
            draws[batch.variant_first_batch + slot] = args;
        }
    } else {
        draws[id] = args;
    }
}
