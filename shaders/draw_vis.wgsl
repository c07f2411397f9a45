
// ---- shaders/draw_vis.wgsl, composed after shaders/draw.wgsl ----
//! Pass "main", deferred (`passes::deferred`): the opaque, masked and double-sided variants of
//! a renderer whose adapter has `primitive_index` shade nothing in their fragments. Each
//! fragment that passes the depth test writes its triangle's id into the `ids` target
//! (`R32Uint`; `shaders/shared/visibility.wgsl` numbers them), tagged `DRAWN_TEXTURED_BIT`
//! where its material reads a texture. The forward-shaded fragments of
//! such a renderer write `NO_IDS` there (`fs_opaque_ids` and the others in shaders/draw.wgsl),
//! so the target names the hardware triangle of every pixel whose colour is still to come. After the frame's last main pass the shade dispatch (`shaders/shade.wgsl`)
//! shades every such pixel once, on every compute unit, and the composite
//! (`shaders/resolve.wgsl`) writes the colours.
//!
//! Why: the H200's fragment work runs on its few graphics units, and a fragment shader shades
//! every 2 × 2 quad a small triangle touches, where the compute dispatch shades each pixel
//! once (docs/BENCHMARKS.md § "Deferred shading of the hardware's pixels").

/// The deferred vertex output: the clip position, computed as `vs_main` and the shade
/// dispatch's `corner_of` compute it, the main coordinate set (only the masked variant's
/// alpha test reads it) and, flat, the id of the object's triangle 0 (tagged) and its
/// material.
struct VisOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) @interpolate(flat) ids: vec2<u32>,
}

@vertex
fn vs_vis(vertex: VertexIn, @builtin(instance_index) instance: u32) -> VisOut {
    let entry = instances[instance];
    let id = entry & ((1u << LEVEL_SHIFT) - 1u);
    let object = objects[id];
    var out: VisOut;
    out.clip_position = frame.view_proj * vec4<f32>(animate_point(object, vertex.position), 1.0);
    out.uv = vec2<f32>(0.0);
    if SURFACE_TEXTURES {
        out.uv = vertex.uv;
    }
    let textured = select(0u, DRAWN_TEXTURED_BIT, material_textured(object.material));
    out.ids = vec2<u32>(first_triangle_id(object.batch + (entry >> LEVEL_SHIFT), id) | textured, object.material);
    return out;
}

@fragment
fn fs_vis(in: VisOut, @builtin(primitive_index) primitive: u32) -> @location(1) u32 {
    return in.ids.x + primitive;
}

/// The masked variant: the alpha test of `fs_masked` (base colour × texture; the deferred
/// variants draw no vertex colours), then the ids.
@fragment
fn fs_vis_masked(in: VisOut, @builtin(primitive_index) primitive: u32) -> @location(1) u32 {
    let at = SurfaceUv(in.uv, dpdx(in.uv), dpdy(in.uv), 0u);
    if surface_color(in.ids.y, vec4<f32>(1.0), at).a < materials[in.ids.y].alpha_cutoff {
        discard;
    }
    return in.ids.x + primitive;
}

