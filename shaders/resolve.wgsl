//! The compute rasteriser's resolve (`passes::raster`): one full-screen triangle drawn at the
//! start of the main pass, before its multi-draws (`MainPass::record` says why). Per pixel it
//! writes the colour the shade dispatch (`shaders/shade.wgsl`) stored and the raster pass's
//! depth, so the depth test keeps whichever of it and the hardware-drawn objects is nearer,
//! and the depth pyramid sees both. It does no more than two loads per pixel: its fragments
//! run on the H200's few graphics units.
//!
//! The second phase's resolve writes only the objects that phase listed; the first phase's are
//! already in the target.

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

/// The colour the shade dispatch left for the pixel at `at` and the raster pass's depth, if an
/// object listed from `first` on won it.
fn resolve(at: vec4<f32>, first: u32) -> Resolved {
    let pixel = vec2<u32>(at.xy);
    let word = pixels[pixel.y * u32(frame.target_size.x) + pixel.x];
    if all(word == vec2<u32>(0u)) || ((0xffffffffu - word.x) >> SOFT_TRIANGLE_BITS) < first {
        discard;
    }
    return Resolved(textureLoad(shaded, pixel, 0), bitcast<f32>(0xffffffffu - word.y));
}

@fragment
fn fs_resolve(@builtin(position) at: vec4<f32>) -> Resolved {
    return resolve(at, 0u);
}

@fragment
fn fs_resolve_late(@builtin(position) at: vec4<f32>) -> Resolved {
    return resolve(at, draw_counts[COUNTER_SOFT_EARLY]);
}
