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
//! Textures: a material names per role a size class (one texture array per class and role)
//! and a layer. Picking the array is a `switch` (`sample_base_color_class`,
//! `sample_normal_class`, generated from the `textures` table), non-uniform control flow
//! where `textureSample` is not allowed, so each fragment entry point takes the UV
//! derivatives first, in uniform flow (`surface_uv`), and every texture read is a
//! `textureSampleLevel` at the level they give (`mip_level`): trilinear, mip level from the
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

/// One coordinate by its wrap mode, for the repeating sampler: a repeating axis as it is (the
/// sampler wraps it, filtering across the edge); clamp and mirror folded into [0, 1] and kept
/// `inset` from the edges, so the sampler's bilinear footprint never reaches across the edge
/// to the far side. That reads what a clamping or mirroring sampler would, to within one texel
/// of the finer mip level at the edge.
fn wrap_coordinate(t: f32, mode: u32, inset: f32) -> f32 {
    var folded = t;
    if mode == WRAP_CLAMP_TO_EDGE {
        folded = clamp(t, inset, 1.0 - inset);
    } else if mode == WRAP_MIRRORED_REPEAT {
        folded = clamp(1.0 - abs(t - 2.0 * floor(t * 0.5) - 1.0), inset, 1.0 - inset);
    }
    return folded;
}

/// The coordinates to sample a texture of size class `size_class` with, given its wrap bits (u in
/// bits 0-1, v in bits 2-3). The inset is half a texel of the coarser of the two mip levels
/// trilinear filtering reads (the level from the same derivatives the sampler uses).
fn wrapped_uv(size_class: u32, wrap: u32, at: SurfaceUv) -> vec2<f32> {
    if wrap == WRAP_REPEAT {
        return at.uv;
    }
    let size = f32(SMALLEST_TEXTURE_CLASS << size_class);
    let level = ceil(max(log2(max(length(at.ddx), length(at.ddy)) * size), 0.0));
    let inset = min(0.5, 0.5 * exp2(level) / size);
    return vec2<f32>(wrap_coordinate(at.uv.x, wrap & 3u, inset), wrap_coordinate(at.uv.y, wrap >> 2u, inset));
}

/// Base colour × its texture, if the material has one.
fn surface_color(material: GpuMaterial, at: SurfaceUv) -> vec4<f32> {
    var texel = vec4<f32>(1.0);
    if material.base_color_layer >= 0 {
        let size_class = material.base_color_slot;
        let uv = wrapped_uv(size_class, material.base_color_wrap, at);
        texel = sample_base_color_class(size_class, material.base_color_layer, uv, at.ddx, at.ddy);
    }
    return material.base_color * texel;
}

/// Directional light + ambient. The normal map is sampled for its tangent-space z, which
/// darkens bumps.
fn shade(material: GpuMaterial, color: vec3<f32>, normal: vec3<f32>, at: SurfaceUv) -> vec3<f32> {
    var detail = 1.0;
    if material.normal_layer >= 0 {
        let size_class = material.normal_slot;
        let uv = wrapped_uv(size_class, material.normal_wrap, at);
        detail = sample_normal_class(size_class, material.normal_layer, uv, at.ddx, at.ddy).z;
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
        return vec4<f32>(target_encoded(color.rgb), 1.0);
    }
    return vec4<f32>(target_encoded(shade(material, color.rgb, normal, at)), 1.0);
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
    return vec4<f32>(target_encoded(color * (0.3 + 0.7 * diffuse)), 1.0);
}
