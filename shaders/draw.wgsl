//! Pass "main": every way of drawing (GPU-driven, CPU baseline, bundles) goes through these
//! entry points under one pipeline layout, so the modes differ only in who writes the draws.
//!
//! The vertex shader finds its object through `instances[instance_index]`:
//! `instance_index` includes `first_instance` (INDIRECT_FIRST_INSTANCE), which is the start of
//! a batch's slice for GPU-driven draws and the object's slot in its level's identity range
//! (`identity_base + level × objects + object`) for per-object draws. Each entry carries the
//! level of detail above `LEVEL_SHIFT`, for the LOD debug view.
//!
//! Variants (one pipeline each, same layout): opaque (`fs_opaque`, back faces culled),
//! masked (`fs_masked`, discards below the material's alpha cutoff), double-sided
//! (`fs_opaque` without back-face culling; lighting uses the facing normal) and debug
//! (`fs_debug`, one colour per mesh).
//!
//! Textures: a material names a slot (one texture array per size class and encoding) and a
//! layer. Picking the slot is a `switch` (`sample_texture_slot`, generated from the
//! `textures` table), non-uniform control flow where `textureSample` is not allowed, so each
//! fragment entry point takes the UV derivatives first, in uniform flow (`surface_uv`), and
//! every texture read is a `textureSampleGrad` with them: trilinear, mip level from the
//! unwrapped coordinates, so folding them for clamp and mirror modes makes no seam.

// Bindings: groups `frame`, `scene` and `textures`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
}

struct VertexOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) world_normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) @interpolate(flat) material: u32,
    @location(3) @interpolate(flat) mesh: u32,
    @location(4) @interpolate(flat) level: u32,
}

@vertex
fn vs_main(vertex: VertexIn, @builtin(instance_index) instance: u32) -> VertexOut {
    let entry = instances[instance];
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    let world = animate_point(object, vertex.position);
    var out: VertexOut;
    out.clip_position = frame.view_proj * vec4<f32>(world, 1.0);
    out.world_normal = animate_direction(object, vertex.normal);
    out.uv = vertex.uv;
    out.material = object.material;
    out.mesh = object.mesh;
    out.level = entry >> LEVEL_SHIFT;
    return out;
}

/// Texture coordinates with their screen-space derivatives, taken in uniform control flow.
struct SurfaceUv {
    uv: vec2<f32>,
    ddx: vec2<f32>,
    ddy: vec2<f32>,
}

fn surface_uv(uv: vec2<f32>) -> SurfaceUv {
    return SurfaceUv(uv, dpdx(uv), dpdy(uv));
}

/// One coordinate folded into [0, 1] by its wrap mode.
fn wrap_coordinate(t: f32, mode: u32) -> f32 {
    var folded = fract(t);
    if mode == WRAP_CLAMP_TO_EDGE {
        folded = clamp(t, 0.0, 1.0);
    } else if mode == WRAP_MIRRORED_REPEAT {
        folded = 1.0 - abs(t - 2.0 * floor(t * 0.5) - 1.0);
    }
    return folded;
}

/// Layer `layer` of slot `slot` with wrap bits `wrap` (u in bits 0-1, v in bits 2-3). Both
/// axes repeating: the repeating sampler, filtered across the edges. Otherwise the
/// coordinates are folded here and read through the clamping sampler (exact for clamp and
/// mirror; a repeating axis beside another mode loses half a texel of filtering at its edge).
fn sample_texture(slot: u32, layer: i32, wrap: u32, at: SurfaceUv) -> vec4<f32> {
    let repeat = wrap == WRAP_REPEAT;
    let folded = vec2<f32>(wrap_coordinate(at.uv.x, wrap & 3u), wrap_coordinate(at.uv.y, wrap >> 2u));
    return sample_texture_slot(slot, layer, select(folded, at.uv, repeat), at.ddx, at.ddy, repeat);
}

/// Base colour × its texture, if the material has one.
fn surface_color(material: GpuMaterial, at: SurfaceUv) -> vec4<f32> {
    var texel = vec4<f32>(1.0);
    if material.base_color_layer >= 0 {
        texel = sample_texture(material.base_color_slot, material.base_color_layer, material.base_color_wrap, at);
    }
    return material.base_color * texel;
}

/// Directional light + ambient. The normal map is sampled for its tangent-space z, which
/// darkens bumps.
fn shade(material: GpuMaterial, color: vec3<f32>, normal: vec3<f32>, at: SurfaceUv) -> vec3<f32> {
    var detail = 1.0;
    if material.normal_layer >= 0 {
        detail = sample_texture(material.normal_slot, material.normal_layer, material.normal_wrap, at).z;
    }
    let n = normalize(normal);
    let diffuse = max(dot(n, frame.light_direction.xyz), 0.0) * detail;
    return color * (frame.light_direction.w + (1.0 - frame.light_direction.w) * diffuse);
}

/// The LOD debug view's colour of a level: level 0 white, then ever warmer.
fn level_color(level: u32) -> vec3<f32> {
    let colors = array<vec3<f32>, 6>(
        vec3<f32>(0.9, 0.9, 0.9),
        vec3<f32>(0.2, 0.5, 1.0),
        vec3<f32>(0.2, 0.85, 0.3),
        vec3<f32>(1.0, 0.85, 0.1),
        vec3<f32>(1.0, 0.45, 0.1),
        vec3<f32>(0.9, 0.1, 0.2),
    );
    return colors[min(level, 5u)];
}

/// The base colour, or the level's colour in the LOD debug view (`frame.debug_view == 1`).
fn debug_color(color: vec4<f32>, level: u32) -> vec4<f32> {
    return select(color, vec4<f32>(level_color(level), color.a), frame.debug_view == 1u);
}

/// The lit colour, or in the albedo debug view (`frame.debug_view == 2`) the base colour ×
/// texture unlit, so a texel comes out as it went in.
fn lit_or_albedo(material: GpuMaterial, color: vec4<f32>, normal: vec3<f32>, at: SurfaceUv) -> vec4<f32> {
    if frame.debug_view == 2u {
        return vec4<f32>(color.rgb, 1.0);
    }
    return vec4<f32>(shade(material, color.rgb, normal, at), 1.0);
}

@fragment
fn fs_opaque(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let at = surface_uv(in.uv);
    let material = materials[in.material];
    let color = debug_color(surface_color(material, at), in.level);
    let normal = select(-in.world_normal, in.world_normal, front);
    return lit_or_albedo(material, color, normal, at);
}

@fragment
fn fs_masked(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let at = surface_uv(in.uv);
    let material = materials[in.material];
    let color = surface_color(material, at);
    if color.a < material.alpha_cutoff {
        discard;
    }
    let shown = debug_color(color, in.level);
    let normal = select(-in.world_normal, in.world_normal, front);
    return lit_or_albedo(material, shown, normal, at);
}

/// One colour per mesh, from a hash, lit so shapes stay readable.
@fragment
fn fs_debug(in: VertexOut) -> @location(0) vec4<f32> {
    var h = in.mesh * 747796405u + 2891336453u;
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
    h = (h >> 22u) ^ h;
    let color = vec3<f32>(f32(h & 255u), f32((h >> 8u) & 255u), f32((h >> 16u) & 255u)) / 255.0;
    let diffuse = max(dot(normalize(in.world_normal), frame.light_direction.xyz), 0.0);
    return vec4<f32>(color * (0.3 + 0.7 * diffuse), 1.0);
}
