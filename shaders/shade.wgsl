//! The compute rasteriser's shading (`passes::raster`): two compute dispatches after the
//! frame's last raster pass, one thread per drawn pixel of the plain and of the textured list
//! (`shade_list`, `shaders/shade_list.wgsl`). It takes the triangle the raster passes left for
//! the pixel, fetches that triangle again, interpolates its vertex attributes with perspective-correct weights at
//! the pixel centre (and their derivatives, for the texture level), shades it as the draw
//! shader's fragments do and stores the colour in `shaded`, which the resolve
//! (`shaders/resolve.wgsl`) copies into the main pass's target with the pixel's depth (in a
//! deferred frame, the composite).
//!
//! Why a compute dispatch: the fragment work of a full-screen pass runs on the few units that
//! do graphics, and shading the pixels in the resolve's fragment shader cost the main pass far
//! more than copying them does on the H200 (docs/BENCHMARKS.md § "Shading in a compute dispatch").
//! Here every unit shares it. The same function shades the deferred variants' pixels
//! (`shaders/draw_vis.wgsl`), which the hardware drew, listed by `list_drawn`.

// Bindings: groups `frame`, `shade io` and `textures`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// Corner `index` of the arena: its clip position, world normal and texture coordinates, as
/// `vs_main` computes them.
struct Corner {
    clip: vec4<f32>,
    world: vec3<f32>,
    normal: vec3<f32>,
    uv: vec2<f32>,
}

fn corner_of(object: GpuObject, index: u32) -> Corner {
    let i = index * 8u;
    let local = vec3<f32>(vertex_words[i], vertex_words[i + 1u], vertex_words[i + 2u]);
    let normal = vec3<f32>(vertex_words[i + 3u], vertex_words[i + 4u], vertex_words[i + 5u]);
    let world = animate_point(object, local);
    let uv = vec2<f32>(vertex_words[i + 6u], vertex_words[i + 7u]);
    return Corner(frame.view_proj * vec4<f32>(world, 1.0), world, animate_direction(object, normal), uv);
}

/// Vertex `index`'s world tangent (w: the bitangent's sign), as `vs_main` computes it: zero
/// where the mesh has none.
fn tangent_of(object: GpuObject, index: u32) -> vec4<f32> {
    let packed = vertex_tangents[index];
    let tangent = vec4<f32>(unpack2x16snorm(packed.x), unpack2x16snorm(packed.y));
    if all(tangent == vec4<f32>(0.0)) {
        return tangent;
    }
    return vec4<f32>(animate_direction(object, tangent.xyz), tangent.w);
}

/// The colour of the pixel at `pixel` showing triangle `triangle` of object `entry` (its id
/// tagged with its level), shaded as the draw shader's `fs_opaque` and `fs_masked` shade a
/// fragment of a surface without vertex colours whose textures read the first coordinate set
/// (the kinds the cull pass lists, and the deferred variants draw).
fn shade_triangle(pixel: vec2<u32>, entry: u32, triangle: u32, textured: bool) -> vec4<f32> {
    let level = entry >> LEVEL_SHIFT;
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    let batch = batches[object.batch + level];
    let index = batch.first_index + triangle * 3u;
    let v0 = u32(i32(indices[index]) + batch.base_vertex);
    let v1 = u32(i32(indices[index + 1u]) + batch.base_vertex);
    let v2 = u32(i32(indices[index + 2u]) + batch.base_vertex);
    let k0 = corner_of(object, v0);
    let k1 = corner_of(object, v1);
    let k2 = corner_of(object, v2);
    let triangle_at = clip_triangle(k0.clip, k1.clip, k2.clip);
    let at = clip_interpolation(triangle_at, vec2<i32>(pixel));
    let b = at.weights;
    let normal = normalize(b.x * k0.normal + b.y * k1.normal + b.z * k2.normal);
    let uvs = mat3x2<f32>(k0.uv, k1.uv, k2.uv);
    let surface = SurfaceUv(uvs * b, uvs * at.ddx, uvs * at.ddy, 0u);
    let m = object.material;
    var texel = vec4<f32>(1.0);
    if textured {
        texel = base_color_texel(m, surface);
    }
    let color = debug_color(materials[m].base_color * texel, level);
    var turned = normal;
    if textured && materials[m].normal_texture.layer >= 0 && (materials[m].vertex_inputs & READS_TANGENT) != 0u {
        let t = b.x * tangent_of(object, v0) + b.y * tangent_of(object, v1) + b.z * tangent_of(object, v2);
        turned = mapped_normal(m, normal, t, surface, surface.uv);
    }
    let front = triangle_at.det > 0.0;
    let world = b.x * k0.world + b.y * k1.world + b.z * k2.world;
    var surface_of = material_surface(m, color);
    if textured {
        surface_of = textured_surface(m, color, surface, surface.uv);
    }
    return lit_or_albedo(surface_of, select(-turned, turned, front), world);
}

/// The pixel and payload word of entry `position` of the plain list, or of the textured one
/// where `textured`; `None`-like (x = `NOT_LISTED`) past the list's count.
fn listed(position: u32, textured: bool) -> vec2<u32> {
    let kind = select(0u, 4u, textured);
    if position >= shade_list[kind] {
        return vec2<u32>(NOT_LISTED, 0u);
    }
    let capacity = u32(frame.target_size.x) * u32(frame.target_size.y);
    let at = SHADE_LIST_HEADER + 2u * select(position, capacity - 1u - position, textured);
    return vec2<u32>(shade_list[at], shade_list[at + 1u]);
}

const NOT_LISTED: u32 = 0xffffffffu;

/// Shades the compute rasteriser's pixel at `position` of its plain list, or of its textured
/// one where `textured`.
fn shade_listed(position: u32, textured: bool) {
    let item = listed(position, textured);
    if item.x == NOT_LISTED {
        return;
    }
    let width = u32(frame.target_size.x);
    let payload = 0xffffffffu - item.y;
    let slot = (payload & ~SOFT_TEXTURED_BIT) >> SOFT_TRIANGLE_BITS;
    let entry = instances[frame.soft_base + slot];
    let pixel = vec2<u32>(item.x % width, item.x / width);
    textureStore(shaded, pixel, shade_triangle(pixel, entry, payload & (SOFT_MAX_TRIANGLES - 1u), textured));
}

/// Shades the deferred pixel at `position` of its plain list, or of its textured one where
/// `textured`: the hardware drew its triangle, whose id the `ids` target holds.
fn shade_drawn(position: u32, textured: bool) {
    let item = listed(position, textured);
    if item.x == NOT_LISTED {
        return;
    }
    let width = u32(frame.target_size.x);
    let pixel = vec2<u32>(item.x % width, item.x / width);
    let named = named_triangle(textureLoad(ids, pixel, 0).x & ~DRAWN_TEXTURED_BIT);
    let color = shade_triangle(pixel, named.x, named.y, textured);
    // The list carries the pixel's depth: the composite takes the nearer of this and the
    // compute rasteriser's pixel, and writes the depth of the one it takes.
    textureStore(shaded, pixel, vec4<f32>(color.rgb, bitcast<f32>(item.y)));
}

/// The plain list: materials without textures (a CPU would otherwise run the texture reads of
/// every pixel, masked).
@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn shade_plain(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    shade_listed(id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE, false);
}

@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn shade_textured(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    shade_listed(id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE, true);
}

/// The deferred pixels' dispatches, plain and textured (`passes::deferred`).
@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn shade_drawn_plain(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    shade_drawn(id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE, false);
}

@compute @workgroup_size(SHADE_WORKGROUP_SIZE)
fn shade_drawn_textured(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    shade_drawn(id.x + id.y * groups.x * SHADE_WORKGROUP_SIZE, true);
}
