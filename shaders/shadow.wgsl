//! Pass "shadow k": the depth of the sun's shadow casters seen by cascade k, drawn into layer k
//! of the view's shadow map by the same draws a main pass makes (one multi-draw per variant of
//! what the cascade's own cull and build passes wrote, or the CPU baseline's per-object
//! draws). The frame group is the cascade's: `frame.view_proj` is its orthographic
//! projection, and the shadow map it binds is the 1×1 placeholder, since the pass writes the
//! real one.
//!
//! Opaque, double-sided and debug casters need no fragment shader (`vs_depth` alone); masked
//! ones run `fs_masked` to cut their alpha-tested holes (foliage casts its leaves, not its
//! cards). The depth bias that keeps a lit surface from shadowing itself is the pipeline's
//! (`passes::shadow::DEPTH_BIAS`), scaled by the slope of each triangle.

// Bindings: groups `frame`, `scene` and `textures`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

struct DepthIn {
    @location(0) position: vec3<f32>,
}

/// The caster's world position, as the draw shader's `vs_main` places it.
fn caster_world(position: vec3<f32>, instance: u32) -> vec3<f32> {
    let entry = instances[instance];
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    return animate_point(object, position);
}

@vertex
fn vs_depth(vertex: DepthIn, @builtin(instance_index) instance: u32) -> @builtin(position) vec4<f32> {
    return frame.view_proj * vec4<f32>(caster_world(vertex.position, instance), 1.0);
}

struct MaskedIn {
    @location(0) position: vec3<f32>,
    @location(2) uv: vec2<f32>,
}

struct MaskedOut {
    @builtin(position) clip_position: vec4<f32>,
    /// The material's main coordinate set.
    @location(0) uv: vec2<f32>,
    /// The vertex colour's alpha (1 where the mesh has no colours).
    @location(1) alpha: f32,
    /// Material; the main set (0 or 1).
    @location(2) @interpolate(flat) ids: vec2<u32>,
}

@vertex
fn vs_masked(
    vertex: MaskedIn,
    @builtin(vertex_index) index: u32,
    @builtin(instance_index) instance: u32,
) -> MaskedOut {
    let entry = instances[instance];
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    let inputs = materials[object.material].vertex_inputs;
    var out: MaskedOut;
    out.clip_position = frame.view_proj * vec4<f32>(animate_point(object, vertex.position), 1.0);
    let main_is_1 = (inputs & MAIN_SET_1) != 0u && (inputs & READS_UV1) != 0u;
    out.uv = vertex.uv;
    if main_is_1 {
        out.uv = vertex_uv1[index];
    }
    out.alpha = 1.0;
    if (object.animation & VERTEX_COLORS_BIT) != 0u {
        out.alpha = unpack2x16unorm(vertex_colors[index].y).y;
    }
    out.ids = vec2<u32>(object.material, select(0u, 1u, main_is_1));
    return out;
}

/// The draw shader's `fs_masked` test: base colour × texture × vertex alpha below the cutoff is
/// a hole.
@fragment
fn fs_masked(in: MaskedOut) {
    let at = SurfaceUv(in.uv, dpdx(in.uv), dpdy(in.uv), in.ids.y);
    let m = in.ids.x;
    var alpha = materials[m].base_color.a * in.alpha;
    if materials[m].base_color_texture.layer >= 0 {
        alpha *= base_color_texel(m, at).a;
    }
    if alpha < materials[m].alpha_cutoff {
        discard;
    }
}
