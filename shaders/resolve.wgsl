//! The compute rasteriser's resolve (`passes::raster`): one full-screen triangle drawn at the
//! start of the frame's last main pass, before its multi-draws (`MainPass::record` says why).
//! Per pixel it writes the colour the shade dispatch (`shaders/shade.wgsl`) stored and the
//! raster passes' depth where that is nearer than, or as near as, what the depth buffer holds
//! (the first phase's hardware draws), and the second phase's hardware draws are depth-tested
//! against it. One resolve a frame, however many phases: its fragments run on the few graphics
//! units of a GPU like the H200 (docs/BENCHMARKS.md § "Shading in a compute dispatch"), so it
//! does no more than two loads per pixel.

// Bindings: groups `frame` and `resolve io`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

@vertex
fn vs_fullscreen(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
}

struct Resolved {
    @location(0) color: vec4<f32>,
    @builtin(frag_depth) depth: f32,
}

/// The colour the shade dispatch left for the pixel at `at` and the raster passes' depth, if a
/// listed object won it.
@fragment
fn fs_resolve(@builtin(position) at: vec4<f32>) -> Resolved {
    return fs_resolve_at(at);
}

fn fs_resolve_at(at: vec4<f32>) -> Resolved {
    let pixel = vec2<u32>(at.xy);
    let word = pixels[pixel.y * u32(frame.target_size.x) + pixel.x];
    if all(word == vec2<u32>(0u)) {
        discard;
    }
    return Resolved(textureLoad(shaded, pixel, 0), bitcast<f32>(0xffffffffu - word.y));
}

/// The resolve of a deferred renderer (`passes::deferred`): as `fs_resolve`, and `NO_IDS` in
/// the `ids` target, so the composite leaves the compute rasteriser's pixel as it is.
struct ResolvedIds {
    @location(0) color: vec4<f32>,
    @location(1) ids: vec2<u32>,
    @builtin(frag_depth) depth: f32,
}

@fragment
fn fs_resolve_ids(@builtin(position) at: vec4<f32>) -> ResolvedIds {
    let resolved = fs_resolve_at(at);
    return ResolvedIds(resolved.color, vec2<u32>(NO_IDS), resolved.depth);
}

/// The deferred composite (`passes::deferred`), its own pass after the frame's last main pass:
/// the colour the shade dispatch stored for each pixel whose `ids` name a triangle.
@fragment
fn fs_composite(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<u32>(at.xy);
    if textureLoad(ids, pixel, 0).x == NO_IDS {
        discard;
    }
    return textureLoad(shaded, pixel, 0);
}
