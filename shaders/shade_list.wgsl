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
//! pixels that have them. The frame clears the counts. The deferred variants' pixels
//! (`passes::deferred`) are listed the same way from the `ids` target, into a list of their own.

// Bindings: groups `frame` and `shade list`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// What the list takes of pixel `i` (row by row): x 0 where there is nothing to shade, 1 for
/// the plain list, 2 for the textured one; y the payload word it lists. From the compute
/// rasteriser's visibility buffer (the payload inverted, tagged `SOFT_TEXTURED_BIT` by the
/// raster pass), or where `drawn` from the deferred variants' `ids` target (textured where the
/// draw shader tagged the id `DRAWN_TEXTURED_BIT`; `shaders/shared/visibility.wgsl`), the word
/// then the pixel's depth bits, which the shade stores for the composite.
fn pixel_item(i: u32, drawn: bool) -> vec2<u32> {
    if drawn {
        let width = u32(frame.target_size.x);
        let pixel = vec2<u32>(i % width, i / width);
        let triangle_id = textureLoad(ids, pixel, 0).x;
        if triangle_id == NO_IDS {
            return vec2<u32>(0u);
        }
        // `ids` are not cleared where the composite runs in compute: a pixel's id is this
        // frame's only where a fragment wrote its depth (`passes::deferred`).
        let depth = textureLoad(depth, pixel, 0);
        if depth >= 1.0 {
            return vec2<u32>(0u);
        }
        let textured = (triangle_id & DRAWN_TEXTURED_BIT) != 0u;
        return vec2<u32>(select(1u, 2u, textured), bitcast<u32>(depth));
    }
    let word = pixels[i];
    if all(word == vec2<u32>(0u)) {
        return vec2<u32>(0u);
    }
    return vec2<u32>(select(1u, 2u, ((0xffffffffu - word.x) & SOFT_TEXTURED_BIT) != 0u), word.x);
}

/// One thread per `SHADE_LIST_SEGMENT` pixels of a row: counts the pixels of each kind to
/// shade, takes room for them with one atomic add per kind, and lists them (the order between
/// segments does not matter).
fn list_segment(segment: u32, drawn: bool) {
    let size = vec2<u32>(frame.target_size);
    // Past the last segment, none: nothing is counted, and the thread returns below.
    let range = row_segment(segment);
    let first = range.x;
    let end = range.y;
    var plain = 0u;
    var textured_count = 0u;
    for (var i = first; i < end; i++) {
        let kind = pixel_item(i, drawn).x;
        plain += select(0u, 1u, kind == 1u);
        textured_count += select(0u, 1u, kind == 2u);
    }
    if plain + textured_count == 0u {
        return;
    }
    var front = SHADE_LIST_HEADER + 2u * atomicAdd(&shade_list[0], plain);
    // The textured list's last entry is at the buffer's last pair: `capacity` pairs in all.
    let capacity = size.x * size.y;
    var back = SHADE_LIST_HEADER + 2u * (capacity - atomicAdd(&shade_list[4], textured_count));
    for (var i = first; i < end; i++) {
        let item = pixel_item(i, drawn);
        if item.x != 0u {
            var at = front;
            if item.x == 2u {
                back -= 2u;
                at = back;
            } else {
                front += 2u;
            }
            atomicStore(&shade_list[at], i);
            atomicStore(&shade_list[at + 1u], item.y);
        }
    }
}

/// The compute rasteriser's pixels.
@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn list_pixels(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    list_segment(id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE, false);
}

/// The deferred variants' pixels (`passes::deferred`).
@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn list_drawn(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    list_segment(id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE, true);
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
