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

/// Base colour × texture layer (a 1×1 white placeholder when the scene has no textures).
/// The texture is always sampled so the sample stays in uniform control flow.
fn surface_color(material: GpuMaterial, uv: vec2<f32>) -> vec4<f32> {
    let texel = textureSample(base_color_textures, material_sampler, uv, max(material.base_color_layer, 0));
    return material.base_color * select(vec4<f32>(1.0), texel, material.base_color_layer >= 0);
}

/// Directional light + ambient. The normal slot is sampled for its tangent-space z, which
/// darkens bumps; the flat placeholder (0.5, 0.5, 1) leaves lighting unchanged.
fn shade(material: GpuMaterial, color: vec3<f32>, normal: vec3<f32>, uv: vec2<f32>) -> vec3<f32> {
    let bump = textureSample(normal_textures, material_sampler, uv, max(material.normal_layer, 0)).z;
    let detail = select(1.0, bump, material.normal_layer >= 0);
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

@fragment
fn fs_opaque(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let material = materials[in.material];
    let color = debug_color(surface_color(material, in.uv), in.level);
    let normal = select(-in.world_normal, in.world_normal, front);
    return vec4<f32>(shade(material, color.rgb, normal, in.uv), 1.0);
}

@fragment
fn fs_masked(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    let material = materials[in.material];
    let color = surface_color(material, in.uv);
    if color.a < material.alpha_cutoff {
        discard;
    }
    let shown = debug_color(color, in.level);
    let normal = select(-in.world_normal, in.world_normal, front);
    return vec4<f32>(shade(material, shown.rgb, normal, in.uv), 1.0);
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
