//! Pass "merge shadow k" (and "merge shadow k late", `passes::shadow`): the depth of shadow
//! cascade k's small casters, which the compute rasteriser drew into the visibility buffer
//! (`shaders/raster.wgsl`, the depth pass's bias included), merged with `layer`: per texel the
//! nearer of the two, as the 16-bit depth the layer stores, two texels to a word of `merged`,
//! row after row. The phase's depth pass then starts with a copy of `merged` into the layer
//! and draws the larger casters over it. `layer` is the far plane in a first phase (the
//! cascade's layer still holds last frame's depths then), and in the second what the first
//! phase left in the layer. A thread per word.
//!
//! Why a copy and not a full-screen draw that writes depth: on a GPU with few graphics units
//! (the H100, the H200) such a draw over a whole layer costs many times what this pass, a
//! read and a write of each texel, does (measured: docs/BENCHMARKS.md § "Small casters through
//! the compute rasteriser").

// Bindings: group `shadow merge io`, declared from its table in src/gpu_scene/layout.rs ahead
// of this file.

/// The texel's depth in 16-bit steps: the nearer of the layer's and the compute rasteriser's.
fn merged_depth(texel: u32, size: vec2<u32>) -> u32 {
    if texel >= size.x * size.y {
        return 0xffffu;
    }
    var depth = textureLoad(layer, vec2<u32>(texel % size.x, texel / size.x), 0);
    let soft = pixels[texel];
    // An empty texel of the visibility buffer is all zeros; its depth bits are inverted.
    if any(soft != vec2<u32>(0u)) {
        depth = min(depth, bitcast<f32>(0xffffffffu - soft.y));
    }
    return u32(round(clamp(depth, 0.0, 1.0) * 65535.0));
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn merge(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let size = textureDimensions(layer);
    let word = gid.x + gid.y * groups.x * WORKGROUP_SIZE;
    if word * 2u >= size.x * size.y {
        return;
    }
    merged[word] = merged_depth(2u * word, size) | (merged_depth(2u * word + 1u, size) << 16u);
}
