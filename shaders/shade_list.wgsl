//! The compute rasteriser's list of pixels to shade (`passes::raster`): after the frame's last
//! raster pass, the drawn pixels of the visibility buffer gathered into `shade_list`, so the
//! shade dispatch (`shaders/shade.wgsl`) runs a thread per drawn pixel, not per pixel of the
//! target. On a CPU (lavapipe) a thread that has nothing to do still runs the whole shader
//! masked: shading the screen cost 150 ms of a 1,000-object frame there whatever the compute
//! rasteriser drew.
//!
//! `shade_list`: word 0 the count, words 1-3 the shade dispatch's workgroup counts, then per
//! drawn pixel two words from `SHADE_LIST_HEADER` on: its index (row by row) and its payload
//! word as the visibility buffer holds it (the inverted payload). The frame clears the count.

// Bindings: groups `frame` and `shade list`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// One thread per `SHADE_LIST_SEGMENT` pixels of a row: counts the drawn ones, takes room for
/// them with one atomic add, and lists them (the order between segments does not matter).
@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn list_pixels(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let size = vec2<u32>(frame.target_size);
    let per_row = (size.x + SHADE_LIST_SEGMENT - 1u) / SHADE_LIST_SEGMENT;
    let segment = id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE;
    if segment >= per_row * size.y {
        return;
    }
    let row = segment / per_row;
    let first = row * size.x + (segment % per_row) * SHADE_LIST_SEGMENT;
    let end = min(first + SHADE_LIST_SEGMENT, (row + 1u) * size.x);
    var drawn = 0u;
    for (var i = first; i < end; i++) {
        if any(pixels[i] != vec2<u32>(0u)) {
            drawn += 1u;
        }
    }
    if drawn == 0u {
        return;
    }
    var at = SHADE_LIST_HEADER + 2u * atomicAdd(&shade_list[0], drawn);
    for (var i = first; i < end; i++) {
        let word = pixels[i];
        if any(word != vec2<u32>(0u)) {
            atomicStore(&shade_list[at], i);
            atomicStore(&shade_list[at + 1u], word.x);
            at += 2u;
        }
    }
}

/// One thread: the shade dispatch's workgroup counts for the listed pixels, split over y past
/// the per-dimension limit.
@compute @workgroup_size(1)
fn list_arguments() {
    let groups = (atomicLoad(&shade_list[0]) + SHADE_WORKGROUP_SIZE - 1u) / SHADE_WORKGROUP_SIZE;
    atomicStore(&shade_list[1], min(groups, MAX_WORKGROUPS_PER_DIMENSION));
    atomicStore(&shade_list[2], (groups + MAX_WORKGROUPS_PER_DIMENSION - 1u) / MAX_WORKGROUPS_PER_DIMENSION);
    atomicStore(&shade_list[3], 1u);
}
