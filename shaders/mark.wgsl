//! The mark dispatch (`passes::raster::RasterPass::mark`): after the frame's last raster pass,
//! in a frame that culls in two phases, sets the visibility bit of every object that holds a
//! pixel of the compute rasteriser's visibility buffer, for the next frame's first phase.
//!
//! The second culling phase leaves those objects' bits clear (`marked_later` in
//! `shaders/cull.wgsl`, `frame.mark_seen`): the pyramid test lets through what lies behind
//! a gap of a texel's pixels too, and as bits those objects would be drawn again in the next
//! frame's first phase, hidden. The hardware's objects keep the second phase's bits. An object
//! whose pixel the hardware then covers is marked all the same (this reads no depth buffer):
//! with moving objects, a first phase of only the pixels the frame kept left gaps where
//! they had moved, and its pyramid hid fewer objects (docs/BENCHMARKS.md § "Visibility from
//! the pixels").
//!
//! One thread per `SHADE_LIST_SEGMENT` pixels of a row (`row_segment`), as the shade list's;
//! a run of pixels of one object marks it once. A
//! pixel's payload names the object's place in the compute rasteriser's list
//! (`shaders/raster.wgsl`), whose entry is the object's id tagged with its level, and
//! `instances[cull_slot_base..]`
//! gives the id's slot in the cull's order, the bit's index. (Why not a thread per pixel:
//! docs/BENCHMARKS.md § "Visibility from the pixels".)

// Bindings: groups `frame` and `mark io`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn mark(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let range = row_segment(id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE);
    var marked = 0xffffffffu;
    for (var i = range.x; i < range.y; i++) {
        let word = pixels[i];
        if all(word == vec2<u32>(0u)) {
            continue;
        }
        let place = ((0xffffffffu - word.x) & ~SOFT_TEXTURED_BIT) >> SOFT_TRIANGLE_BITS;
        if place == marked {
            continue;
        }
        marked = place;
        let object = instances[frame.soft_base + place] & ((1u << LEVEL_SHIFT) - 1u);
        if object < frame.object_count {
            visibility[instances[frame.cull_slot_base + object]] = 1u;
        }
    }
}
