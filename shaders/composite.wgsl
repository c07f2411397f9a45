//! The deferred composite in compute (`passes::deferred`), where the target's colour texture
//! can be written as storage: per pixel, what `fs_composite` in `shaders/resolve.wgsl` writes
//! (the nearer of the deferred triangle's colour the shade dispatch stored and the compute
//! rasteriser's pixel, where as near as the depth buffer), stored into the target by a thread
//! instead of a fragment. On the H100 (and the H200, the same chip) a full-screen pass runs on
//! the few graphics units and costs several times what a dispatch over the same pixels does
//! (docs/BENCHMARKS.md § "The composite in compute").
//!
//! A dispatch cannot write the depth buffer, so the compute rasteriser's pixels that win stay
//! out of it: their depth goes to `soft_depth_out` (every pixel written, `NO_DEPTH` where the
//! compute rasteriser's pixel is not the frame's), which the blended pass tests against
//! (`frame.soft_depth_test`, `fs_blend` in `shaders/draw.wgsl`).
//!
//! It writes every pixel: where no surface was drawn, the clear colour (`frame.background`),
//! unless the caller keeps its own colour there (`frame.paint_background` 0). So the main
//! pass does not clear the colour target, nor `ids`, whose ids count only where the depth
//! buffer holds a surface (`passes::main::MainPass::record`).

// Bindings: group `composite io`, declared from its table in src/gpu_scene/layout.rs ahead of
// this file.

/// `color` as the target stores it: the shaded colours are what a fragment returns, which an
/// sRGB target's encoder would encode (`frame.encode_srgb` 0) and any other stores as is.
fn stored(color: vec4<f32>) -> vec4<f32> {
    if frame.encode_srgb == 0u {
        return vec4<f32>(srgb_encoded(color.rgb), color.a);
    }
    return color;
}

@compute @workgroup_size(TILE_WORKGROUP_SIDE, TILE_WORKGROUP_SIDE)
fn composite(@builtin(global_invocation_id) id: vec3<u32>) {
    let pixel = id.xy;
    if any(pixel >= vec2<u32>(frame.target_size)) {
        return;
    }
    var soft_depth = NO_DEPTH;
    if frame.soft_enabled != 0u {
        soft_depth = soft_depth_at(pixel);
    }
    // The main pass cleared the depth buffer but not `ids` (`passes::deferred`): a pixel's id
    // is this frame's only where the depth buffer holds a surface.
    let hardware_depth = textureLoad(depth, pixel, 0);
    let drawn_here = hardware_depth < 1.0;
    var drawn_color = vec4<f32>(0.0, 0.0, 0.0, NO_DEPTH);
    if drawn_here && textureLoad(ids, pixel, 0).x != NO_IDS {
        drawn_color = textureLoad(drawn, pixel, 0);
    }
    // The full-screen pass's depth test (less or equal) against what the hardware drew last.
    let soft_wins = soft_depth <= drawn_color.a && soft_depth <= hardware_depth;
    textureStore(soft_depth_out, pixel, vec4<f32>(select(NO_DEPTH, soft_depth, soft_wins), 0.0, 0.0, 0.0));
    if soft_wins {
        textureStore(color, pixel, stored(textureLoad(shaded, pixel, 0)));
    } else if drawn_color.a != NO_DEPTH {
        textureStore(color, pixel, stored(vec4<f32>(drawn_color.rgb, 1.0)));
    } else if !drawn_here && frame.paint_background != 0u {
        // Nothing was drawn here, and the main pass did not clear the colour.
        textureStore(color, pixel, frame.background);
    }
}
