//! Pass "cull": one thread per object tests the object's animated bounding sphere against the
//! culling frustum.
//!
//! `cull` (batched modes): a visible object takes the next slot of its batch with an atomicAdd
//! on the batch's instance count and writes its id there. A batch's slice of `instances[]` has
//! room for every object of the batch (capacity fixed at upload), so no prefix sum is needed
//! per frame; the counts are cleared with `clear_buffer` before the pass.
//!
//! `cull_per_object` (mode gpu-per-object): one indirect command per object, the way the
//! simplest GPU-driven engines do it, to show what batching buys. Compacted behind a
//! GPU-written count when `frame.compact` is 1, otherwise one command per object with
//! instance_count 0 or 1.
//!
//! Both count visible objects per workgroup first and add that to one global counter, so the
//! total costs one global atomic per workgroup instead of one per object.
//!
//! Dispatches larger than 65,535 workgroups are split over y; `frame.dispatch_width` is the
//! number of threads in one row.

// Bindings: groups `frame` and `cull io`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

var<workgroup> workgroup_visible: atomic<u32>;

fn object_index(gid: vec3<u32>) -> u32 {
    return gid.x + gid.y * frame.dispatch_width;
}

fn is_visible(object: GpuObject) -> bool {
    if frame.cull_enabled == 0u {
        return true;
    }
    let center = animate_point(object, object.bounds.xyz);
    return sphere_in_frustum(center, object.bounds.w);
}

/// Adds this workgroup's visible objects to the global counter. Called from uniform control
/// flow by every thread of the workgroup.
fn count_visible(local_index: u32, visible: bool) {
    if local_index == 0u {
        atomicStore(&workgroup_visible, 0u);
    }
    workgroupBarrier();
    if visible {
        atomicAdd(&workgroup_visible, 1u);
    }
    workgroupBarrier();
    if local_index == 0u {
        let total = atomicLoad(&workgroup_visible);
        if total > 0u {
            atomicAdd(&draw_counts[VISIBLE_COUNTER_SLOT], total);
        }
    }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn cull(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) local_index: u32) {
    let id = object_index(gid);
    var visible = false;
    if id < frame.object_count {
        let object = objects[id];
        visible = is_visible(object);
        if visible {
            let batch = batches[object.batch];
            let slot = atomicAdd(&batch_counts[object.batch], 1u);
            // Cannot fail while every object belongs to exactly one batch; kept so a corrupt
            // batch table can never write outside its slice.
            if slot < batch.capacity {
                instances[batch.first_instance + slot] = id;
            }
        }
    }
    count_visible(local_index, visible);
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn cull_per_object(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) local_index: u32) {
    let id = object_index(gid);
    var visible = false;
    if id < frame.object_count {
        let object = objects[id];
        visible = is_visible(object);
        let batch = batches[object.batch];
        var args: DrawIndexedIndirectArgs;
        args.index_count = batch.index_count;
        args.instance_count = select(0u, 1u, visible);
        args.first_index = batch.first_index;
        args.base_vertex = batch.base_vertex;
        args.first_instance = frame.identity_base + id;
        if frame.compact != 0u {
            if visible {
                let slot = atomicAdd(&draw_counts[batch.variant], 1u);
                draws[batch.variant_first_object + slot] = args;
            }
        } else {
            draws[id] = args;
        }
    }
    count_visible(local_index, visible);
}
