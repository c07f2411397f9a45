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
    let pixel = vec2<u32>(at.xy);
    let depth = soft_depth_at(pixel);
    if depth == NO_DEPTH {
        discard;
    }
    return Resolved(textureLoad(shaded, pixel, 0), depth);
}

/// The deferred composite (`passes::deferred`), its own pass after the frame's last main pass,
/// which also resolves the compute rasteriser's pixels in a deferred frame: per pixel, the
/// nearer of what the shade dispatch stored for a deferred triangle (`drawn`, its depth in
/// alpha) and the compute rasteriser's pixel (`shaded`, its depth in the visibility buffer;
/// it wins ties, as at the resolve), with its depth. The depth test (less or equal) keeps the
/// forward-shaded fragments that are nearer than a compute rasteriser's pixel; where neither
/// kind of pixel is, the fragment is discarded.
struct Composited {
    @location(0) color: vec4<f32>,
    @builtin(frag_depth) depth: f32,
}

@fragment
fn fs_composite(@builtin(position) at: vec4<f32>) -> Composited {
    let pixel = vec2<u32>(at.xy);
    var soft_depth = NO_DEPTH;
    if frame.soft_enabled != 0u {
        soft_depth = soft_depth_at(pixel);
    }
    var drawn_color = vec4<f32>(0.0, 0.0, 0.0, NO_DEPTH);
    if textureLoad(ids, pixel, 0).x != NO_IDS {
        drawn_color = textureLoad(drawn, pixel, 0);
    }
    if soft_depth == NO_DEPTH && drawn_color.a == NO_DEPTH {
        discard;
    }
    if soft_depth <= drawn_color.a {
        return Composited(textureLoad(shaded, pixel, 0), soft_depth);
    }
    return Composited(vec4<f32>(drawn_color.rgb, 1.0), drawn_color.a);
}
