//! The compute rasteriser's resolve (`passes::raster`): one full-screen triangle drawn at the
//! start of the main pass, before its multi-draws (`MainPass::record` says why). Per pixel it reads what the raster pass left in `pixels[]`, fetches
//! that triangle again, interpolates the vertex normal with perspective-correct barycentrics
//! at the pixel centre, and shades it as the draw shader's `fs_opaque` shades an untextured
//! surface (the only kind the cull pass lists). It writes the colour and the raster pass's
//! depth, so the depth test keeps whichever of it and the hardware-drawn objects is nearer,
//! and the depth pyramid sees both.
//!
//! The second phase's resolve shades only the objects that phase listed; the first phase's are
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

/// Corner `index` of the arena: its clip position and world normal, as `vs_main` computes them.
struct Corner {
    clip: vec4<f32>,
    normal: vec3<f32>,
}

fn corner_of(object: GpuObject, index: u32) -> Corner {
    let i = index * 8u;
    let local = vec3<f32>(vertex_words[i], vertex_words[i + 1u], vertex_words[i + 2u]);
    let normal = vec3<f32>(vertex_words[i + 3u], vertex_words[i + 4u], vertex_words[i + 5u]);
    let world = animate_point(object, local);
    return Corner(frame.view_proj * vec4<f32>(world, 1.0), animate_direction(object, normal));
}

/// Shades the pixel at `at` if an object listed from `first` on won it.
fn resolve(at: vec4<f32>, first: u32) -> Resolved {
    let pixel = vec2<u32>(at.xy);
    let word = pixels[pixel.y * u32(frame.target_size.x) + pixel.x];
    if all(word == vec2<u32>(0u)) {
        discard;
    }
    let payload = 0xffffffffu - word.x;
    let slot = payload >> SOFT_TRIANGLE_BITS;
    if slot < first {
        discard;
    }
    let entry = instances[frame.soft_base + slot];
    let level = entry >> LEVEL_SHIFT;
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    let batch = batches[object.batch + level];
    let index = batch.first_index + (payload & (SOFT_MAX_TRIANGLES - 1u)) * 3u;
    let k0 = corner_of(object, u32(i32(indices[index]) + batch.base_vertex));
    let k1 = corner_of(object, u32(i32(indices[index + 1u]) + batch.base_vertex));
    let k2 = corner_of(object, u32(i32(indices[index + 2u]) + batch.base_vertex));
    let s0 = screen_of(k0.clip);
    let s1 = screen_of(k1.clip);
    let s2 = screen_of(k2.clip);
    // Screen-space barycentrics at the pixel centre, then perspective-corrected.
    let d1 = s1 - s0;
    let d2 = s2 - s0;
    let dp = at.xy - s0;
    let area = d1.x * d2.y - d1.y * d2.x;
    let l1 = (dp.x * d2.y - dp.y * d2.x) / area;
    let l2 = (d1.x * dp.y - d1.y * dp.x) / area;
    let l = vec3<f32>(1.0 - l1 - l2, l1, l2) / vec3<f32>(k0.clip.w, k1.clip.w, k2.clip.w);
    let b = l / (l.x + l.y + l.z);
    let normal = normalize(b.x * k0.normal + b.y * k1.normal + b.z * k2.normal);
    // Counter-clockwise in NDC, a front face, is a negative area on screen (y down).
    let front = area < 0.0;
    let color = debug_color(materials[object.material].base_color, level);
    return Resolved(lit_or_albedo(color, select(-normal, normal, front)), bitcast<f32>(0xffffffffu - word.y));
}

@fragment
fn fs_resolve(@builtin(position) at: vec4<f32>) -> Resolved {
    return resolve(at, 0u);
}

@fragment
fn fs_resolve_late(@builtin(position) at: vec4<f32>) -> Resolved {
    return resolve(at, draw_counts[COUNTER_SOFT_EARLY]);
}
