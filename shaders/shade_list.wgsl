//! The compute rasteriser's list of pixels to shade (`passes::raster`): after the frame's last
//! raster pass, the drawn pixels of the visibility buffer gathered into `shade_list`, so the
//! shade dispatch (`shaders/shade.wgsl`) runs a thread per drawn pixel, not per pixel of the
//! target. On a CPU (lavapipe) a thread that has nothing to do still runs the whole shader
//! masked, so a thread per pixel of the target cost every frame the same large time, whatever
//! the compute rasteriser drew (docs/BENCHMARKS.md § "Shading a list of the drawn pixels").
//!
//! `shade_list`: words 0-3 the plain pixels' count and shade dispatch, words 4-7 the textured
//! pixels' (their material has a base-colour texture or a normal map), then from
//! `SHADE_LIST_HEADER` on two words per drawn pixel: its index (row by row) and its payload
//! word as the visibility buffer holds it (the inverted payload); plain pixels from the front,
//! textured ones from the back. Two lists, so that a CPU runs the texture reads only for the
//! pixels that have them. The frame clears the counts.

// Bindings: groups `frame` and `shade list`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// Whether the pixel with visibility-buffer word `word` shows a textured material: the raster
/// pass tagged its payload.
fn textured(word: vec2<u32>) -> bool {
    return ((0xffffffffu - word.x) & SOFT_TEXTURED_BIT) != 0u;
}

/// One thread per `SHADE_LIST_SEGMENT` pixels of a row: counts the drawn ones of each kind,
/// takes room for them with one atomic add per kind, and lists them (the order between
/// segments does not matter).
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
    // Bit 0 of `kinds`, per pixel: textured (a segment is at most 64 pixels).
    var kinds = vec2<u32>(0u);
    var plain = 0u;
    var textured_count = 0u;
    for (var i = first; i < end; i++) {
        let word = pixels[i];
        if any(word != vec2<u32>(0u)) {
            let bit = i - first;
            if textured(word) {
                kinds[bit >> 5u] |= 1u << (bit & 31u);
                textured_count += 1u;
            } else {
                plain += 1u;
            }
        }
    }
    if plain + textured_count == 0u {
        return;
    }
    var front = SHADE_LIST_HEADER + 2u * atomicAdd(&shade_list[0], plain);
    // The textured list's last entry is at the buffer's last pair: `capacity` pairs in all.
    let capacity = size.x * size.y;
    var back = SHADE_LIST_HEADER + 2u * (capacity - atomicAdd(&shade_list[4], textured_count));
    for (var i = first; i < end; i++) {
        let word = pixels[i];
        if any(word != vec2<u32>(0u)) {
            let bit = i - first;
            var at = front;
            if (kinds[bit >> 5u] & (1u << (bit & 31u))) != 0u {
                back -= 2u;
                at = back;
            } else {
                front += 2u;
            }
            atomicStore(&shade_list[at], i);
            atomicStore(&shade_list[at + 1u], word.x);
        }
    }
}

/// One thread: the two shade dispatches' workgroup counts, split over y past the per-dimension
/// limit.
@compute @workgroup_size(1)
fn list_arguments() {
    for (var kind = 0u; kind < 2u; kind++) {
        let base = kind * 4u;
        let groups = (atomicLoad(&shade_list[base]) + SHADE_WORKGROUP_SIZE - 1u) / SHADE_WORKGROUP_SIZE;
        atomicStore(&shade_list[base + 1u], min(groups, MAX_WORKGROUPS_PER_DIMENSION));
        atomicStore(&shade_list[base + 2u], (groups + MAX_WORKGROUPS_PER_DIMENSION - 1u) / MAX_WORKGROUPS_PER_DIMENSION);
        atomicStore(&shade_list[base + 3u], 1u);
    }
}
