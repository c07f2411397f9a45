//! Pass "pyramid": the depth buffer reduced to a hierarchical-Z mip chain, one dispatch per
//! level, one thread per texel of the level written.
//!
//! Every texel keeps the FARTHEST depth (the max: depth compares Less and clears to 1.0) of the
//! whole area it covers, so an object whose nearest depth is behind a texel's value is behind
//! everything drawn there: the pyramid may call an occluded object visible, never the reverse.
//!
//! Level 0 is the largest power of two below the screen in each dimension, so every later
//! level is an exact 2 × 2 reduction. Level 0 itself shrinks by a ratio r = source /
//! destination in (1, 2] per axis (1 for a dimension of 1), and texel x covers source texels
//! floor(x·r) ..= ceil((x + 1)·r) − 1: up to three per axis, overlapping their neighbours' so
//! no source texel is left out. wgpu has no
//! min/max reduction sampler, so every texel is read with `textureLoad`.

// Bindings: group `pyramid io` (`depth`, `source_level`, `destination_level`) and, for
// `reduce_depth_soft`, group `pyramid soft` (`pixels`), declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// The first and last source texel (inclusive) covered by destination texel `texel` along an
/// axis of `destination` texels reducing `source` ones. Integer arithmetic, so the CPU
/// reference in tests/pyramid.rs finds exactly the same texels.
fn covered(texel: u32, destination: u32, source: u32) -> vec2<u32> {
    let first = texel * source / destination;
    let end = ((texel + 1u) * source + destination - 1u) / destination;
    return vec2<u32>(first, end - 1u);
}

/// The depth texels level-0 texel `texel` covers: first and last column, first and last row.
fn level_0_footprint(texel: vec2<u32>) -> vec4<u32> {
    let size = textureDimensions(destination_level);
    let source_size = textureDimensions(depth);
    return vec4<u32>(covered(texel.x, size.x, source_size.x), covered(texel.y, size.y, source_size.y));
}

/// Level 0 from the depth buffer.
@compute @workgroup_size(TILE_WORKGROUP_SIDE, TILE_WORKGROUP_SIDE)
fn reduce_depth(@builtin(global_invocation_id) gid: vec3<u32>) {
    if any(gid.xy >= textureDimensions(destination_level)) {
        return;
    }
    let area = level_0_footprint(gid.xy);
    var farthest = 0.0;
    for (var y = area.z; y <= area.w; y++) {
        for (var x = area.x; x <= area.y; x++) {
            farthest = max(farthest, textureLoad(depth, vec2<u32>(x, y), 0));
        }
    }
    textureStore(destination_level, gid.xy, vec4<f32>(farthest, 0.0, 0.0, 0.0));
}

/// Level 0 from the depth buffer and the compute rasteriser's visibility buffer, the nearer
/// of the two per pixel: the first phase's small objects reach the depth buffer only with the
/// resolve, in the second phase's main pass (`passes::raster`).
@compute @workgroup_size(TILE_WORKGROUP_SIDE, TILE_WORKGROUP_SIDE)
fn reduce_depth_soft(@builtin(global_invocation_id) gid: vec3<u32>) {
    if any(gid.xy >= textureDimensions(destination_level)) {
        return;
    }
    let area = level_0_footprint(gid.xy);
    let width = textureDimensions(depth).x;
    var farthest = 0.0;
    for (var y = area.z; y <= area.w; y++) {
        for (var x = area.x; x <= area.y; x++) {
            var d = textureLoad(depth, vec2<u32>(x, y), 0);
            let word = pixels[y * width + x];
            if any(word != vec2<u32>(0u)) {
                d = min(d, bitcast<f32>(0xffffffffu - word.y));
            }
            farthest = max(farthest, d);
        }
    }
    textureStore(destination_level, gid.xy, vec4<f32>(farthest, 0.0, 0.0, 0.0));
}

/// Level i from level i − 1: 2 × 2 texels, or 1 along an axis already at 1.
@compute @workgroup_size(TILE_WORKGROUP_SIDE, TILE_WORKGROUP_SIDE)
fn reduce_level(@builtin(global_invocation_id) gid: vec3<u32>) {
    let size = textureDimensions(destination_level);
    if any(gid.xy >= size) {
        return;
    }
    let source_last = textureDimensions(source_level) - 1u;
    let first = min(gid.xy * 2u, source_last);
    let last = min(gid.xy * 2u + 1u, source_last);
    let farthest = max(
        max(textureLoad(source_level, first, 0).x, textureLoad(source_level, vec2<u32>(last.x, first.y), 0).x),
        max(textureLoad(source_level, vec2<u32>(first.x, last.y), 0).x, textureLoad(source_level, last, 0).x),
    );
    textureStore(destination_level, gid.xy, vec4<f32>(farthest, 0.0, 0.0, 0.0));
}
