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
//! One thread per pixel; of a row's run of pixels of one object only the first marks it (the
//! neighbour is read from the same cache lines). A pixel's payload names the object's place
//! in the compute rasteriser's list (`shaders/raster.wgsl`), whose entry is the object's id,
//! and `instances[cull_slot_base..]` gives the id's slot in the cull's order, the bit's index.

// Bindings: groups `frame` and `mark io`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// The place in the compute rasteriser's list that pixel word `word` names, or `NO_PLACE` for
/// an empty pixel.
fn place_of(word: vec2<u32>) -> u32 {
    if all(word == vec2<u32>(0u)) {
        return NO_PLACE;
    }
    return ((0xffffffffu - word.x) & ~SOFT_TEXTURED_BIT) >> SOFT_TRIANGLE_BITS;
}

const NO_PLACE: u32 = 0xffffffffu;

@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn mark(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let i = id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE;
    let width = u32(frame.target_size.x);
    if i >= width * u32(frame.target_size.y) {
        return;
    }
    let place = place_of(pixels[i]);
    if place == NO_PLACE || (i % width != 0u && place_of(pixels[i - 1u]) == place) {
        return;
    }
    let object = instances[frame.soft_base + place] & ((1u << LEVEL_SHIFT) - 1u);
    if object < frame.object_count {
        visibility[instances[frame.cull_slot_base + object]] = 1u;
    }
}
