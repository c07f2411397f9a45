//! The compute rasteriser's shading (`passes::raster`): a compute dispatch after each phase's
//! raster pass, one thread per pixel. It reads what the raster pass left in `pixels[]`, fetches
//! that triangle again, interpolates the vertex normal with perspective-correct barycentrics at
//! the pixel centre, shades it as the draw shader's `fs_opaque` shades an untextured surface
//! (the only kind the cull pass lists) and stores the colour in `shaded`, which the resolve
//! (`shaders/resolve.wgsl`) copies into the main pass's target with the pixel's depth.
//!
//! Why a compute dispatch: on the H200 the fragment work of a full-screen pass runs on the few
//! units that do graphics; shading the default scene's 1280×720 pixels in the resolve's fragment
//! shader took 0.6 ms there. Here every unit shares it.
//!
//! The second phase's dispatch shades only the objects that phase listed; the first phase's
//! are already in `shaded` (and the target).

// Bindings: groups `frame` and `shade io`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

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

/// Shades pixel `pixel` into `shaded` if an object listed from `first` on won it.
fn shade_pixel(pixel: vec2<u32>, first: u32) {
    if any(pixel >= vec2<u32>(frame.target_size)) {
        return;
    }
    let word = pixels[pixel.y * u32(frame.target_size.x) + pixel.x];
    if all(word == vec2<u32>(0u)) {
        return;
    }
    let payload = 0xffffffffu - word.x;
    let slot = payload >> SOFT_TRIANGLE_BITS;
    if slot < first {
        return;
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
    let dp = vec2<f32>(pixel) + 0.5 - s0;
    let area = d1.x * d2.y - d1.y * d2.x;
    let l1 = (dp.x * d2.y - dp.y * d2.x) / area;
    let l2 = (d1.x * dp.y - d1.y * dp.x) / area;
    let l = vec3<f32>(1.0 - l1 - l2, l1, l2) / vec3<f32>(k0.clip.w, k1.clip.w, k2.clip.w);
    let b = l / (l.x + l.y + l.z);
    let normal = normalize(b.x * k0.normal + b.y * k1.normal + b.z * k2.normal);
    // Counter-clockwise in NDC, a front face, is a negative area on screen (y down).
    let front = area < 0.0;
    let color = debug_color(materials[object.material].base_color, level);
    textureStore(shaded, pixel, lit_or_albedo(color, select(-normal, normal, front)));
}

@compute @workgroup_size(RESOLVE_TILE, RESOLVE_TILE)
fn shade_pixels(@builtin(global_invocation_id) id: vec3<u32>) {
    shade_pixel(id.xy, 0u);
}

@compute @workgroup_size(RESOLVE_TILE, RESOLVE_TILE)
fn shade_pixels_late(@builtin(global_invocation_id) id: vec3<u32>) {
    shade_pixel(id.xy, draw_counts[COUNTER_SOFT_EARLY]);
}

