
// ---- shaders/draw_vis.wgsl, composed after shaders/draw.wgsl ----
//! Pass "main", deferred (`passes::deferred`): the opaque, masked and double-sided variants of
//! a renderer whose adapter has `primitive_index` shade nothing in their fragments. Each
//! fragment that passes the depth test writes what names it into the `ids` target
//! (`Rg32Uint`): the object's entry (its id tagged with its level, as `instances[]` holds it)
//! and the triangle within its level's index range (`DRAWN_TEXTURED_BIT` where its material
//! reads a texture). The forward-shaded fragments of such a renderer, and the compute
//! rasteriser's resolve, write `NO_IDS` there (`fs_opaque_ids` and the others in
//! shaders/draw.wgsl), so the target names the hardware triangle of every pixel whose colour is
//! still to come. After the frame's last main pass the shade dispatch (`shaders/shade.wgsl`)
//! shades every such pixel once, on every compute unit, and the composite
//! (`shaders/resolve.wgsl`) writes the colours.
//!
//! Why: the H200's fragment work runs on its few graphics units, and a fragment shader shades
//! every 2 × 2 quad a small triangle touches, where the compute dispatch shades each pixel
//! once (docs/BENCHMARKS.md § "Deferred shading of the hardware's pixels").

/// The deferred vertex output: the clip position, computed as `vs_main` and the shade
/// dispatch's `corner_of` compute it, the main coordinate set (only the masked variant's
/// alpha test reads it) and, flat, the entry and the material.
struct VisOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) @interpolate(flat) ids: vec2<u32>,
}

@vertex
fn vs_vis(vertex: VertexIn, @builtin(instance_index) instance: u32) -> VisOut {
    let entry = instances[instance];
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    var out: VisOut;
    out.clip_position = frame.view_proj * vec4<f32>(animate_point(object, vertex.position), 1.0);
    out.uv = vec2<f32>(0.0);
    if SURFACE_TEXTURES {
        out.uv = vertex.uv;
    }
    out.ids = vec2<u32>(entry, object.material);
    return out;
}

/// What the `ids` target holds for a fragment of `in`'s triangle `primitive`.
fn drawn_ids(in: VisOut, primitive: u32) -> vec2<u32> {
    let textured = select(0u, DRAWN_TEXTURED_BIT, material_textured(in.ids.y));
    return vec2<u32>(in.ids.x, primitive | textured);
}

@fragment
fn fs_vis(in: VisOut, @builtin(primitive_index) primitive: u32) -> @location(1) vec2<u32> {
    return drawn_ids(in, primitive);
}

/// The masked variant: the alpha test of `fs_masked` (base colour × texture; the deferred
/// variants draw no vertex colours), then the ids.
@fragment
fn fs_vis_masked(in: VisOut, @builtin(primitive_index) primitive: u32) -> @location(1) vec2<u32> {
    let at = SurfaceUv(in.uv, dpdx(in.uv), dpdy(in.uv), 0u);
    if surface_color(in.ids.y, vec4<f32>(1.0), at).a < materials[in.ids.y].alpha_cutoff {
        discard;
    }
    return drawn_ids(in, primitive);
}

