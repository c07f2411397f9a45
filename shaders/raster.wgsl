//! Pass "raster" (and "raster late"): the compute rasteriser. The cull pass lists the small
//! objects it can draw (`SOFT_BIT`, projected radius within `SOFT_MAX_RADIUS_PX`: `is_soft`) in
//! `instances[frame.soft_base..]` (on a CPU adapter those of masked materials in a part of
//! the list of their own, `MASKED_PART`); here one workgroup per listed object runs one thread per
//! triangle in turn. A thread transforms its triangle exactly as the draw shader's vertex
//! stage does, snaps the corners to 1/256 pixel, and tests the pixel centres of its bounding
//! box with integer edge functions under the top-left rule (Vulkan's rasterisation rules, as
//! NVIDIA's and lavapipe's rasterisers apply them). A covered pixel keeps the nearest
//! (depth, payload) in `pixels[]` with a 64-bit `atomicMax` on the inverted pair, so the nearest
//! depth wins, the lowest payload breaks ties, and a cleared (zero) word is empty. The payload
//! is the object's place in the list above `SOFT_TRIANGLE_BITS`, the triangle below, and
//! `SOFT_TEXTURED_BIT` where the material has a texture. A
//! masked material's pixel counts only where its base colour's alpha passes the cutoff, as in
//! `fs_masked`.
//!
//! The shade dispatch (`shaders/shade.wgsl`) then shades what is left, and the resolve
//! pipeline (`shaders/resolve.wgsl`), drawn at the start of the main pass, writes colour and
//! depth; the depth test keeps the nearer of it and what the hardware draws.
//!
//! In a shadow cascade (`frame.orthographic`) the same dispatch draws the cascade's small
//! casters, with the depth pass's bias added, and the shadow merge (`shaders/shadow_merge.wgsl`)
//! gives their depth to the cascade's layer before its depth pass (`passes::shadow`).
//!
//! Why: a thread per triangle on the compute units draws the small objects of the stress scenes
//! several times faster than the narrow raster hardware of the H200 (docs/BENCHMARKS.md §
//! "Compute rasteriser against the raster hardware"; `examples/soft_raster_probe.rs`).

// Bindings: groups `frame`, `raster io` and `textures`, declared from their tables in
// src/gpu_scene/layout.rs ahead of this file.

/// Corner `index` of the arena (a vertex index with the batch's base vertex added), in clip
/// space: the draw shader's `vs_main` arithmetic.
fn clip_of(object: GpuObject, index: u32) -> vec4<f32> {
    let i = index * 8u;
    let local = vec3<f32>(vertex_words[i], vertex_words[i + 1u], vertex_words[i + 2u]);
    return frame.view_proj * vec4<f32>(animate_point(object, local), 1.0);
}

/// Corner `index`'s first texture-coordinate set.
fn uv_of(index: u32) -> vec2<f32> {
    let i = index * 8u;
    return vec2<f32>(vertex_words[i + 6u], vertex_words[i + 7u]);
}

/// Whether material `m` keeps pixel `at` of a triangle with weight planes `planes` and corner
/// texture coordinates `uvs`: `fs_masked`'s test, base colour × texture alpha against the
/// cutoff, the texture level from the coordinates' derivatives as the hardware takes them
/// (`interpolation`).
fn alpha_passes(m: u32, planes: WeightPlanes, uvs: mat3x2<f32>, at: vec2<i32>) -> bool {
    let i = interpolation(planes, at);
    let surface = SurfaceUv(uvs * i.weights, uvs * i.ddx, uvs * i.ddy, 0u);
    return materials[m].base_color.a * base_color_texel(m, surface).a >= materials[m].alpha_cutoff;
}

/// Edge function of (a, b) at p, in 1/256² pixel units: positive on the inner side of a
/// triangle that turns clockwise on screen.
fn edge(a: vec2<i32>, b: vec2<i32>, p: vec2<i32>) -> i32 {
    return (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
}

/// The top-left rule for an edge of a triangle that turns clockwise on screen (y down): a top
/// edge runs right, a left edge runs up. A sample exactly on an edge is covered only by a
/// top or left one.
fn is_top_left(a: vec2<i32>, b: vec2<i32>) -> bool {
    let d = b - a;
    return (d.y == 0 && d.x > 0) || d.y < 0;
}

/// Draws triangle `triangle` of `batch` for `object` into `pixels[]`, tagged `payload`.
fn raster_triangle(object: GpuObject, batch: GpuBatch, triangle: u32, payload: u32) {
    let first = batch.first_index + triangle * 3u;
    let v0 = u32(i32(indices[first]) + batch.base_vertex);
    let v1 = u32(i32(indices[first + 1u]) + batch.base_vertex);
    let v2 = u32(i32(indices[first + 2u]) + batch.base_vertex);
    let c0 = clip_of(object, v0);
    let c1 = clip_of(object, v1);
    let c2 = clip_of(object, v2);
    // Cannot happen for an object the cull pass listed (its nearest point is many radii in
    // front of the camera); a triangle that did would be left out, not drawn wrong.
    if min(c0.w, min(c1.w, c2.w)) <= 0.0 {
        return;
    }
    let s0 = screen_of(c0);
    let s1 = screen_of(c1);
    let s2 = screen_of(c2);
    let lo_f = min(s0, min(s1, s2));
    let hi_f = max(s0, max(s1, s2));
    if any(hi_f - lo_f > vec2<f32>(f32(SOFT_MAX_TRIANGLE_PX))) || any(hi_f < vec2<f32>(0.0))
        || any(lo_f > frame.target_size) {
        return;
    }
    let p0 = vec2<i32>(round(s0 * 256.0));
    var p1 = vec2<i32>(round(s1 * 256.0));
    var p2 = vec2<i32>(round(s2 * 256.0));
    var z = vec3<f32>(c0.z / c0.w, c1.z / c1.w, c2.z / c2.w);
    // Counter-clockwise in NDC (y up), a front face, turns anticlockwise on screen (y down):
    // negative area under `edge`.
    let area = edge(p0, p1, p2);
    if area == 0 || (area > 0 && batch.variant != VARIANT_DOUBLE_SIDED) {
        return;
    }
    // A shadow cascade's casters carry the depth bias the hardware depth pass gives them
    // (`passes::shadow::DEPTH_BIAS`): constant steps plus a factor of the depth's steeper slope
    // per texel.
    var bias_depth = 0.0;
    if frame.orthographic != 0u {
        let e1 = s1 - s0;
        let e2 = s2 - s0;
        let twice_area = e1.x * e2.y - e2.x * e1.y;
        let dz = vec2<f32>(z.y - z.x, z.z - z.x);
        let slope = vec2<f32>(dz.x * e2.y - dz.y * e1.y, dz.y * e1.x - dz.x * e2.x) / twice_area;
        bias_depth = SHADOW_BIAS_CONSTANT + SHADOW_BIAS_SLOPE * max(abs(slope.x), abs(slope.y));
    }
    if area < 0 {
        let p = p1;
        p1 = p2;
        p2 = p;
        z = z.xzy;
    }
    let lo = max((min(p0, min(p1, p2)) + 127) >> vec2<u32>(8u), vec2<i32>(0));
    let hi = min((max(p0, max(p1, p2)) - 128) >> vec2<u32>(8u), vec2<i32>(frame.target_size) - 1);
    // Samples exactly on an edge that is not top or left fail by one: the least value each
    // edge function may take.
    let least = vec3<i32>(
        select(1, 0, is_top_left(p1, p2)),
        select(1, 0, is_top_left(p2, p0)),
        select(1, 0, is_top_left(p0, p1)),
    );
    // Depth is the corners' depths weighted by the edge functions over the area: a plane in
    // the edge functions.
    var cover: Coverage;
    cover.least = least;
    cover.depth_plane = z / f32(abs(area));
    cover.bias_depth = bias_depth;
    cover.key_low = u64(0xffffffffu - payload);
    cover.width = u32(frame.target_size.x);
    // `ALPHA_TEST` off: the pipeline of the list's part without masked objects, which then
    // holds none of the test's code.
    cover.masked = batch.variant == VARIANT_MASKED && ALPHA_TEST;
    cover.material = object.material;
    if cover.masked {
        cover.planes = weight_planes(s0, s1, s2, vec3<f32>(c0.w, c1.w, c2.w), vec2<f32>(lo) + 0.5);
        cover.uvs = mat3x2<f32>(uv_of(v0), uv_of(v1), uv_of(v2));
    }
    // The edge functions at the box's first pixel centre, then stepped a pixel at a time: the
    // same integers as evaluating each pixel afresh, for an add instead of two multiplies per
    // edge (docs/BENCHMARKS.md § "The compute rasteriser's pixel loop").
    let corner = vec2<i32>(lo.x * 256 + 128, lo.y * 256 + 128);
    var row = vec3<i32>(edge(p1, p2, corner), edge(p2, p0, corner), edge(p0, p1, corner));
    let step_x = vec3<i32>(p1.y - p2.y, p2.y - p0.y, p0.y - p1.y) * 256;
    let step_y = vec3<i32>(p2.x - p1.x, p0.x - p2.x, p1.x - p0.x) * 256;
    if FLAT_BOX {
        // One loop over the box's pixels, row by row: lanes that run as one vector take as
        // many steps as the largest box among them has pixels, not its most rows times its
        // widest row.
        let box = hi - lo + 1;
        let box_pixels = select(0, box.x * box.y, all(box > vec2<i32>(0)));
        var at = lo;
        var w = row;
        for (var i = 0; i < box_pixels; i++) {
            cover_pixel(cover, at, w);
            if at.x == hi.x {
                at = vec2<i32>(lo.x, at.y + 1);
                row += step_y;
                w = row;
            } else {
                at.x += 1;
                w += step_x;
            }
        }
    } else {
        for (var y = lo.y; y <= hi.y; y++) {
            var w = row;
            for (var x = lo.x; x <= hi.x; x++) {
                cover_pixel(cover, vec2<i32>(x, y), w);
                w += step_x;
            }
            row += step_y;
        }
    }
}

/// What covering a pixel of one triangle takes, set up once for the triangle: the least value
/// each edge function may take (the top-left rule), its depth as a plane in the edge functions
/// plus the cascades' bias, the payload's half of the key, the row length of `pixels[]`, and
/// for a masked material its weight planes and corner texture coordinates.
struct Coverage {
    least: vec3<i32>,
    depth_plane: vec3<f32>,
    bias_depth: f32,
    key_low: u64,
    width: u32,
    masked: bool,
    material: u32,
    planes: WeightPlanes,
    uvs: mat3x2<f32>,
}

/// Pixel `at` of the triangle whose edge functions there are `w`: where they cover its centre
/// (and a masked material's alpha passes), the nearest (depth, payload) is kept in `pixels[]`.
fn cover_pixel(cover: Coverage, at: vec2<i32>, w: vec3<i32>) {
    if all(w >= cover.least) {
        let depth = clamp(dot(vec3<f32>(w), cover.depth_plane) + cover.bias_depth, 0.0, 1.0);
        let key = (u64(0xffffffffu - bitcast<u32>(depth)) << 32u) | cover.key_low;
        // Behind its own `if`: naga evaluates both sides of `&&` when the right one calls.
        var keep = true;
        if cover.masked {
            keep = alpha_passes(cover.material, cover.planes, cover.uvs, at);
        }
        if keep {
            atomicMax(&pixels[u32(at.y) * cover.width + u32(at.x)], key);
        }
    }
}

/// Rasterises listed object `first + group` of the pipeline's part of the list (one
/// workgroup), one triangle per thread in turn.
fn raster_object(group: u32, first: u32, lane: u32) {
    let at = first + group;
    // The build pass left the part's count within its room.
    if at >= min(draw_counts[COUNT_SLOT], SOFT_MAX_OBJECTS) {
        return;
    }
    let slot = at + select(0u, frame.soft_masked_base, MASKED_PART);
    let entry = instances[frame.soft_base + slot];
    let object = objects[entry & ((1u << LEVEL_SHIFT) - 1u)];
    let batch = batches[object.batch + (entry >> LEVEL_SHIFT)];
    let triangles = min(batch.index_count / 3u, SOFT_MAX_TRIANGLES);
    let m = object.material;
    let textured = material_textured(m);
    let tag = select(0u, SOFT_TEXTURED_BIT, textured) | (slot << SOFT_TRIANGLE_BITS);
    for (var triangle = lane; triangle < triangles; triangle += LANES) {
        raster_triangle(object, batch, triangle, tag | triangle);
    }
}

/// The pipeline's phase, set by `passes::raster` through an override constant: the first (or
/// only) phase rasterises its part of the list from its start, the second the objects it
/// added, after the first phase's.
override LATE: bool = false;

/// The pipeline's part of the list, set by `passes::raster` through override constants. By
/// default the whole list, one part from slot 0, testing alpha where an object's material is
/// masked. On a CPU adapter (`passes::raster::masked_apart`) the cull lists the objects of
/// masked materials apart, from `frame.soft_masked_base` (`MASKED_PART`, counted in
/// `COUNTER_SOFT_MASKED`), and the other part's pipeline has no alpha test (`ALPHA_TEST` off),
/// so it holds none of its code (docs/BENCHMARKS.md § "Masked objects in a raster pipeline of
/// their own"). The counts' slots: the part's length, and where the second phase's entries start.
override MASKED_PART: bool = false;
override ALPHA_TEST: bool = true;
override COUNT_SLOT: u32 = COUNTER_SOFT;
override EARLY_SLOT: u32 = COUNTER_SOFT_EARLY;

/// How a triangle's box is walked (`passes::raster::flat_box`): one loop over its pixels on a
/// CPU adapter, a loop over rows and in each over pixels on a GPU (docs/BENCHMARKS.md § "One
/// loop over the box").
override FLAT_BOX: bool = false;

/// Threads per workgroup, an object's triangles taken in turn: `RASTER_WORKGROUP_SIZE` unless
/// `passes::raster` sets it (`CPU_RASTER_WORKGROUP_SIZE` on a CPU adapter, the width of its
/// vectors).
override LANES: u32 = RASTER_WORKGROUP_SIZE;

@compute @workgroup_size(LANES)
fn raster(
    @builtin(workgroup_id) group: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) lane: u32,
) {
    // A branch, not `select`: the first phase reads no count (select evaluates both).
    var first = 0u;
    if LATE {
        first = draw_counts[EARLY_SLOT];
    }
    raster_object(group.x + group.y * groups.x, first, lane);
}
